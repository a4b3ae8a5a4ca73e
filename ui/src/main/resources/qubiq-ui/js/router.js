// Hash routes (#/store-forward, #/store-forward/db/quarantine, ...). Each page is a module with
// render(root, params, ctx) that may return a cleanup function, called when the page is left.
// Navigation lists only the pages the session's permissions allow; a page the session may not
// see says so instead of rendering.
import { h, clear } from "./dom.js";

export function createRouter({ pages, outlet, nav, ctx }) {
  let cleanup = null;
  let generation = 0;

  const allowed = (page) => !page.permission || ctx.can(page.permission);

  function match(hash) {
    const path = decodeURIComponent(hash.replace(/^#\/?/, "")).split("?")[0];
    for (const page of pages) {
      const names = [];
      const pattern = new RegExp("^" + page.path.replace(/:([a-z]+)/g, (_, name) => {
        names.push(name);
        return "([^/]+)";
      }) + "$");
      const found = pattern.exec(path);
      if (found) return { page, params: Object.fromEntries(names.map((name, i) => [name, found[i + 1]])) };
    }
    return null;
  }

  function renderNav() {
    const links = pages.filter((page) => page.nav !== false && allowed(page)).map((page) =>
        h("a", { href: "#/" + page.path, id: "nav-" + page.path, "data-path": page.path }, page.title));
    clear(nav, links);
  }

  function markCurrent(page) {
    for (const link of nav.querySelectorAll("a")) {
      const current = link.dataset.path === (page.navParent || page.path);
      if (current) link.setAttribute("aria-current", "page");
      else link.removeAttribute("aria-current");
    }
  }

  async function show() {
    const mine = ++generation;
    if (cleanup) {
      try {
        cleanup();
      } catch {
        // a page failing to tidy up must not keep the next one from showing
      }
      cleanup = null;
    }
    const found = match(location.hash);
    if (!found) {
      const first = pages.find((page) => page.nav !== false && allowed(page)) || pages.find((page) => page.path === "account");
      location.replace("#/" + first.path);
      return;
    }
    const { page, params } = found;
    markCurrent(page);
    document.title = page.title + " — Qubiq";
    if (!allowed(page)) {
      clear(outlet, h("h2", { tabindex: "-1" }, page.title),
          h("p", { class: "state failure", role: "alert", "data-test": "forbidden" },
              `Your roles do not grant the permission this page needs (${page.permission}).`));
      return;
    }
    clear(outlet);
    const result = await page.module.render(outlet, params, ctx);
    if (mine !== generation) {
      if (typeof result === "function") result();
      return;
    }
    cleanup = typeof result === "function" ? result : null;
    const heading = outlet.querySelector("h2");
    if (heading && ctx.focusOnNavigate) {
      heading.setAttribute("tabindex", "-1");
      heading.focus({ preventScroll: true });
    }
  }

  function onHashChange() {
    ctx.focusOnNavigate = true;
    show();
  }

  return {
    start() {
      renderNav();
      window.addEventListener("hashchange", onHashChange);
      ctx.focusOnNavigate = false;
      show();
    },
    stop() {
      window.removeEventListener("hashchange", onHashChange);
      generation++;
      if (cleanup) cleanup();
      cleanup = null;
      clear(nav);
    },
  };
}
