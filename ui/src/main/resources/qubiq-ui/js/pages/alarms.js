// The Store & Forward page's Alarms panel: the gateway's active alarms (buffer pressure, a
// poisoned history table, ...) from GET /api/v1/alarms, fetched again on each "alarm" event (a
// raise or a clear), so the list is always the server's and never patched from single events.
import { api } from "../api.js";
import { h, clear, loading, empty, failure, table, keepingFocus } from "../dom.js";
import { subscribe } from "../events.js";
import * as f from "../format.js";

const SEVERITY_CLASS = { CRITICAL: "alarm", WARNING: "warn", INFO: "ok" };

/** The panel and the function that stops its updates. */
export function alarmsPanel() {
  const holder = h("div", { id: "alarms" }, loading());
  const panel = h("section", { id: "alarms-panel", "aria-labelledby": "alarms-title" },
      h("h3", { id: "alarms-title" }, "Alarms"), holder);
  let stopped = false;
  let pending = null; // one fetch at a time; an event during it asks for one more afterwards
  let again = false;
  let loaded = false;

  async function refresh(retrying = false) {
    if (pending) {
      again = true;
      return pending;
    }
    pending = (async () => {
      try {
        const answer = await api.get("/api/v1/alarms");
        if (!stopped) {
          loaded = true;
          keepingFocus(() => renderAlarms(holder, answer.active || []));
        }
      } catch (e) {
        if (!stopped && (retrying || !loaded)) clear(holder, failure(e, () => refresh(true)));
      }
    })();
    await pending;
    pending = null;
    if (again && !stopped) {
      again = false;
      refresh();
    }
    return undefined;
  }

  refresh();
  const unsubscribe = subscribe("alarm", () => refresh());
  const stop = () => {
    stopped = true;
    unsubscribe();
  };
  return { element: panel, stop };
}

function renderAlarms(holder, active) {
  holder.dataset.count = active.length;
  if (active.length === 0) {
    clear(holder, empty("No active alarms."));
    return;
  }
  const { element, body } = table(["Severity", "Kind", "Source", "Since", "Message"], { "data-test": "alarms-table" });
  for (const a of active) {
    const severity = String(a.severity || "").toUpperCase();
    body.append(h("tr", { "data-test": "alarm-row", "data-key": a.key, "data-kind": a.kind },
        h("td", {}, h("span", { class: "pill " + (SEVERITY_CLASS[severity] || "unknown") }, "⚠ " + severity.toLowerCase())),
        h("th", { scope: "row" }, kindText(a.kind)),
        h("td", {}, a.source),
        h("td", {}, f.time(a.at)),
        h("td", {}, h("div", { class: "clamp", title: a.message || null }, a.message || "–"),
            a.kind === "DataLostAlarm" ? h("a", { href: "#/data-integrity", class: "sub", "data-test": "alarm-losses-link" },
                "See Data integrity") : null)));
  }
  clear(holder, element);
}

/** "BufferPressureAlarm" reads "buffer pressure". */
function kindText(kind) {
  return String(kind || "").replace(/Alarm$/, "").replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase() || "–";
}
