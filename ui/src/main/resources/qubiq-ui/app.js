// The console's entry module: the header (gateway name and readiness from /health, refreshed),
// then first-start setup, sign-in, or the signed-in app with its pages.
import { api, setCsrfToken, onUnauthorized } from "./js/api.js";
import { openEvents, closeEvents } from "./js/events.js";
import { createRouter } from "./js/router.js";
import { clear, failure } from "./js/dom.js";
import { PAGES } from "./js/pages/index.js";
import { bytes } from "./js/format.js";
import { renderSignIn } from "./js/pages/sign-in.js";
import { renderSetup } from "./js/pages/setup.js";

const HEALTH_MS = 5000;

const outlet = document.getElementById("page");
const nav = document.getElementById("nav");
const userArea = document.getElementById("user-area");
let router = null;

async function refreshHealth() {
  const badge = document.getElementById("readiness");
  try {
    const response = await fetch("/health", { cache: "no-store" });
    const report = await response.json();
    document.getElementById("gateway-name").textContent = report.name;
    badge.textContent = report.status;
    badge.className = "badge state-" + String(report.status).toLowerCase();
    // DEGRADED: which parts are down and why, on hover
    badge.title = (report.parts || []).map((part) => part.component + " " + part.state + ": " + part.reason)
        .join("\n");
    showDisk(report.disks || []);
  } catch {
    badge.textContent = "UNREACHABLE";
    badge.title = "";
    badge.className = "badge state-failed";
  }
}

// Free disk space of the fullest watched directory; every directory's figures on hover.
function showDisk(disks) {
  const badge = document.getElementById("disk");
  if (disks.length === 0) {
    badge.hidden = true;
    return;
  }
  const fullest = disks.reduce((a, b) => (b.freePercent < a.freePercent ? b : a));
  const words = { OK: "", WARNING: " — low", CRITICAL: " — almost full, buffers stop growing" };
  badge.hidden = false;
  badge.textContent = "disk " + fullest.freePercent.toFixed(1) + " % free" + (words[fullest.state] || "");
  badge.className = "badge disk-" + String(fullest.state).toLowerCase();
  badge.title = disks.map((d) => d.path + ": " + bytes(d.freeBytes) + " free of " + bytes(d.totalBytes)
      + " (" + d.state + ")" + (d.usedBytes === null || d.usedBytes === undefined ? "" : "; holds " + bytes(d.usedBytes)))
      .join("\n");
}

function stopApp() {
  if (router) router.stop();
  router = null;
  closeEvents();
  setCsrfToken(null);
  userArea.hidden = true;
}

function showSignIn(message) {
  stopApp();
  document.title = "Sign in — Qubiq";
  renderSignIn(outlet, { message, onSignedIn: startApp });
}

function startApp(session) {
  stopApp();
  setCsrfToken(session.csrfToken);
  const permissions = new Set(session.permissions || []);
  const ctx = {
    session,
    can: (permission) => permissions.has(permission),
    signOut,
  };
  document.getElementById("session-user").textContent =
      session.user + (session.roles && session.roles.length ? " (" + session.roles.join(", ") + ")" : "");
  userArea.hidden = false;
  const live = document.getElementById("live");
  openEvents({
    onState: (up) => {
      live.textContent = up ? "live" : "reconnecting…";
      live.className = up ? "live up" : "live down";
    },
    // the stream was refused: a 401 here sends the user to sign-in through onUnauthorized
    onClosed: () => api.get("/api/v1/session").catch(() => {}),
    onSignedOut: () => showSignIn("Your session has ended. Please sign in again."),
  });
  router = createRouter({ pages: PAGES, outlet, nav, ctx });
  router.start();
}

async function signOut() {
  closeEvents(); // first, so the stream does not reconnect into a 401 once the session is gone
  try {
    await api.del("/api/v1/session");
  } catch {
    // signed out already, or the gateway is gone: the browser forgets the session either way
  }
  showSignIn("You are signed out.");
}

async function boot() {
  onUnauthorized(() => showSignIn("Your session has ended. Please sign in again."));
  document.getElementById("sign-out").addEventListener("click", signOut);
  // the routes live in the hash, so the skip link moves the focus instead of navigating
  document.querySelector(".skip-link").addEventListener("click", (event) => {
    event.preventDefault();
    document.getElementById("main").focus();
  });
  try {
    const setup = await api.get("/api/v1/setup");
    if (setup && setup.required) {
      renderSetup(outlet, {
        onDone: (message) => showSignIn(message || "The administrator account is ready. Sign in with it."),
      });
      return;
    }
    startApp(await api.get("/api/v1/session", { handle401: true }));
  } catch (e) {
    if (e.status === 401) {
      showSignIn();
    } else {
      clear(outlet, failure(e, () => location.reload()));
    }
  }
}

refreshHealth();
setInterval(refreshHealth, HEALTH_MS);
boot();
