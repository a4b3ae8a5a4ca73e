// The Connections page's Pipelines section: each pipeline's trigger, enabled flag, counters and
// last error, refreshed with the "connections" event. With Edit connections a pipeline can be
// enabled or disabled (an operator override the gateway keeps across restarts); the pipeline the
// server answers replaces its row at once.
import { api, pathParam } from "../api.js";
import { h, clear, loading, empty, failure, table, say, statusLine, keepingFocus } from "../dom.js";
import { subscribe } from "../events.js";
import * as f from "../format.js";

const COUNTERS = ["events", "filtered", "failed", "emitted", "refused", "dropped"];

/** The section and the function that stops its updates. */
export function pipelinesSection(ctx) {
  const holder = h("div", { id: "pipelines" }, loading());
  const message = statusLine("pipeline-message");
  const section = h("section", { id: "pipelines-section", "aria-labelledby": "pipelines-title" },
      h("h3", { id: "pipelines-title" }, "Pipelines"), message, holder);
  const canEdit = ctx.can("edit_connections");
  let shown = [];
  let version = 0; // bumped by each action, so that a list fetched before it does not undo its result

  const show = (list) => {
    shown = list;
    keepingFocus(() => renderPipelines(holder, list, canEdit, toggle));
  };

  async function refresh(retrying = false) {
    const mine = version;
    try {
      const list = await api.get("/api/v1/pipelines");
      if (mine === version) show(list);
    } catch (e) {
      if (retrying || shown.length === 0) clear(holder, failure(e, () => refresh(true)));
    }
  }

  async function toggle(pipeline, enable) {
    version++;
    const verb = enable ? "enable" : "disable";
    try {
      const answer = await api.post(`/api/v1/pipelines/${pathParam(pipeline.id)}/${verb}`);
      version++;
      show(shown.map((p) => (p.id === answer.id ? answer : p)));
      say(message, `Pipeline ${answer.id} is ${answer.enabled ? "enabled" : "disabled"}.`, "ok");
      const next = document.getElementById(`pipeline-${answer.enabled ? "disable" : "enable"}-${answer.id}`);
      if (next && document.activeElement === document.body) next.focus();
    } catch (e) {
      say(message, `Could not ${verb} ${pipeline.id}: ${e.message}`, "error");
      refresh();
    }
  }

  refresh();
  const stop = subscribe("connections", () => refresh());
  return { element: section, stop };
}

function renderPipelines(holder, list, canEdit, toggle) {
  if (list.length === 0) {
    clear(holder, empty("No pipelines are configured."));
    return;
  }
  const { element, body } = table(["Pipeline", "State", "Trigger", "Counters", "Last error", ""],
      { "data-test": "pipelines-table" });
  const why = canEdit ? null : "Needs the Edit connections permission";
  for (const p of list) {
    const counters = p.counters || p;
    const button = (enable) => h("button", {
      type: "button", id: `pipeline-${enable ? "enable" : "disable"}-${p.id}`,
      "data-test": enable ? "pipeline-enable" : "pipeline-disable",
      disabled: !canEdit || p.enabled === enable, title: why,
      "aria-label": `${enable ? "Enable" : "Disable"} pipeline ${p.id}`,
      onclick: (event) => {
        event.currentTarget.disabled = true;
        toggle(p, enable);
      },
    }, enable ? "Enable" : "Disable");
    body.append(h("tr", { "data-test": "pipeline-row", "data-id": p.id, "data-enabled": String(p.enabled) },
        h("th", { scope: "row" }, p.id),
        h("td", { "data-test": "pipeline-state" }, h("span", { class: "pill " + (p.enabled ? "ok" : "warn") },
            p.enabled ? "● enabled" : "■ disabled")),
        h("td", { class: "mono" }, h("div", { class: "clamp", title: p.trigger || null }, p.trigger || "–")),
        h("td", {}, h("ul", { class: "counters" }, COUNTERS.filter((name) => counters[name] !== undefined).map((name) =>
            h("li", {}, h("span", { class: "sub" }, name), " ", f.count(counters[name]))))),
        h("td", { class: "error-text" }, h("div", { class: "clamp", title: p.lastError || null }, p.lastError || "–"),
            p.lastErrorAt ? h("div", { class: "sub" }, f.time(p.lastErrorAt)) : null),
        h("td", { class: "actions" }, button(false), button(true))));
  }
  clear(holder, element);
}
