// The Connections page's Pipelines section: each pipeline's trigger, enabled flag, counters and
// last error, refreshed with the "connections" event. With Edit connections a pipeline can be
// enabled or disabled (an operator override the gateway keeps across restarts); the pipeline the
// server answers replaces its row at once; "New pipeline" and each row's "Edit" open the pipeline
// editor (pipeline-editor.js), and what its Save or Delete did is said above the table. Viewers see
// neither button.
import { editPipeline } from "./pipeline-editor.js";
import { api, pathParam } from "../api.js";
import { h, clear, loading, empty, failure, table, say, statusLine, keepingFocus } from "../dom.js";
import { subscribe } from "../events.js";
import * as f from "../format.js";

const COUNTERS = ["events", "filtered", "failed", "emitted", "refused", "dropped"];

/** The section and the function that stops its updates. */
export function pipelinesSection(ctx) {
  const holder = h("div", { id: "pipelines" }, loading());
  const message = statusLine("pipeline-message");
  const canEdit = ctx.can("edit_connections");
  const create = canEdit ? h("button", { type: "button", id: "pipeline-new", "data-test": "pipeline-new",
    onclick: () => edit(null) }, "New pipeline") : null;
  const section = h("section", { id: "pipelines-section", "aria-labelledby": "pipelines-title" },
      h("h3", { id: "pipelines-title" }, "Pipelines"), create, message, holder);
  let shown = [];
  let version = 0; // bumped by each action, so that a list fetched before it does not undo its result

  const show = (list) => {
    shown = list;
    keepingFocus(() => renderPipelines(holder, list, canEdit, toggle, edit));
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

  async function edit(id) {
    try {
      const done = await editPipeline(id);
      if (!done) return;
      version++;
      say(message, outcomeText(done), "ok");
      refresh();
    } catch (e) {
      say(message, `Could not open the editor: ${e.message}`, "error");
    }
  }

  refresh();
  const stop = subscribe("connections", () => refresh());
  return { element: section, stop };
}

/** "Pipeline p saved: applied live (pipeline:p)." / "... saved; waits for a restart: pipeline:p." */
function outcomeText({ action, id, answer }) {
  const applied = (answer && answer.applied) || [];
  const restart = (answer && answer.needRestart) || [];
  const parts = [`Pipeline ${id} ${action}.`];
  if ((answer.diff || []).length === 0) parts.push("No change: the file already held this.");
  if (applied.length) parts.push(`Applied live (${applied.join(", ")}).`);
  if (restart.length) parts.push(`Waits for a restart: ${restart.join(", ")}.`);
  return parts.join(" ");
}

function renderPipelines(holder, list, canEdit, toggle, edit) {
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
        h("td", { class: "actions" }, button(false), button(true),
            canEdit ? h("button", { type: "button", id: `pipeline-edit-${p.id}`, "data-test": "pipeline-edit",
              "aria-label": `Edit pipeline ${p.id}`, onclick: () => edit(p.id) }, "Edit") : null)));
  }
  clear(holder, element);
}
