// "Add as tags" (Edit connections): the OPC UA variables ticked in the Browse tree become tags of
// that connection, many at once. The dialog names each tag from a path template, with an optional
// sampling interval, linear scaling and engineering unit for all of them, previews the paths, and
// writes the connection's whole tag list in one change (PUT /api/v1/config/devices.<id>.opcua.tags):
// one revision, one live restart of that connection only. Problems come back by key path
// (devices.<id>.opcua.tags[3].path) and are shown against the node they belong to.
import { api } from "../api.js";
import { h, clear } from "../dom.js";
import { formDialog } from "../dialogs.js";
import { readDevices, deviceKey } from "./connection-form.js";

/** The template a dialog starts with. */
export const DEFAULT_TEMPLATE = "{connection}/{browseName}";

/**
 * A tag path from the template: {connection} the connection id, {browseName} the browse name without
 * its namespace prefix ("2:Pressure" is Pressure), {displayName}, {parent} the browse name of the node
 * the variable was found under, {nodeId} the node id's identifier (s=Plant.Pressure is Plant.Pressure).
 * Every character a tag path cannot hold becomes _, and empty segments are dropped.
 */
export function tagPath(template, connection, node) {
  const name = (text) => String(text || "").replace(/^\d+:/, "");
  const identifier = String(node.nodeId || "").replace(/^(ns=\d+;)?[sigb]=/, "");
  const values = { connection, browseName: name(node.browseName), displayName: node.displayName || name(node.browseName),
    parent: name(node.parent), nodeId: identifier };
  const filled = template.replace(/\{(\w+)\}/g, (whole, key) => (key in values ? values[key] : whole));
  return filled.split("/").map((segment) => segment.replace(/[^\p{L}\p{N}_\-.:#]/gu, "_"))
      .filter((segment) => segment.length > 0).join("/");
}

/**
 * Opens the dialog for {@code nodes} ({nodeId, browseName, displayName, parent}) of connection
 * {@code device}; resolves with the PUT's answer once written, or null when cancelled.
 */
export async function addAsTags(device, nodes) {
  const read = await readDevices();
  const current = read.devices[device.id];
  if (!current || !current.opcua) throw new Error(`The configuration has no OPC UA connection '${device.id}'.`);
  const existing = current.opcua.tags || [];
  const taken = new Set(existing.map((t) => (typeof t === "string" ? t : t.path)).filter(Boolean));
  const known = new Set(existing.map((t) => (typeof t === "string" ? t : t.node_id)));
  let template;
  let preview;
  let general;
  let unitInput;
  const numbers = {};

  function number(key, label, attrs = {}) {
    const input = h("input", { type: "number", id: "bt-" + key, step: "any", ...attrs });
    numbers[key] = input;
    input.addEventListener("input", render);
    return h("label", { class: "field" }, h("span", {}, label), input);
  }

  function build(fields) {
    fields.closest("form").noValidate = true;
    fields.closest("dialog").classList.add("wide");
    unitInput = h("input", { type: "text", id: "bt-unit", placeholder: "degC" });
    template = h("input", { type: "text", id: "bt-template", value: DEFAULT_TEMPLATE, "aria-describedby": "bt-template-hint" });
    template.addEventListener("input", render);
    preview = h("ul", { id: "bt-preview", class: "tag-preview", "data-test": "tag-preview" });
    general = h("div", { id: "bt-problems" });
    clear(fields,
        h("p", { class: "hint" }, `${nodes.length} variable${nodes.length === 1 ? "" : "s"} of ${device.id} become tags;`
            + " the connection restarts once to subscribe them, the others keep running."),
        h("label", { class: "field" }, h("span", {}, "Tag path template"), template),
        h("p", { class: "hint", id: "bt-template-hint" }, "Placeholders: {connection}, {browseName}, {displayName},"
            + " {parent} (the folder it was found in), {nodeId}. Characters a tag path cannot hold become _."),
        number("sampling_interval_ms", "Sampling interval (ms), empty: the connection's default", { min: -1, max: 3600000, step: 1 }),
        h("fieldset", {}, h("legend", {}, "Scaling (optional, all four or none)"),
            number("raw_low", "Raw low"), number("raw_high", "Raw high"),
            number("eng_low", "Engineering low"), number("eng_high", "Engineering high")),
        h("label", { class: "field" }, h("span", {}, "Engineering unit (optional)"), unitInput),
        h("h3", {}, "Tags"), preview, general);
    render();
  }

  function tags() {
    const scaleKeys = ["raw_low", "raw_high", "eng_low", "eng_high"];
    const scaled = scaleKeys.filter((k) => numbers[k].value !== "");
    const sampling = numbers.sampling_interval_ms.value;
    const unit = unitInput.value.trim();
    return nodes.map((node) => {
      const tag = { path: tagPath(template.value, device.id, node), node_id: node.nodeId };
      if (sampling !== "") tag.sampling_interval_ms = Number(sampling);
      if (scaled.length === 4) tag.scale = Object.fromEntries(scaleKeys.map((k) => [k, Number(numbers[k].value)]));
      if (unit) tag.engineering_unit = unit;
      return tag;
    });
  }

  /** The preview, with what is wrong with each path before anything is sent. */
  function render() {
    const scaled = ["raw_low", "raw_high", "eng_low", "eng_high"].filter((k) => numbers[k] && numbers[k].value !== "");
    const list = tags();
    const seen = new Set();
    clear(preview, list.map((tag, i) => {
      const problem = !tag.path ? "the template gives an empty path"
          : taken.has(tag.path) || seen.has(tag.path) ? "this path is taken" : known.has(tag.node_id)
          ? "this node is a tag of the connection already" : "";
      seen.add(tag.path);
      return h("li", { "data-test": "tag-preview-item", "data-node": nodes[i].nodeId },
          h("code", {}, tag.path || "(empty)"), " ← ", h("span", { class: "sub" }, tag.node_id),
          problem ? h("span", { class: "field-problem" }, " " + problem) : null);
    }));
    clear(general, scaled.length > 0 && scaled.length < 4
      ? h("p", { class: "field-problem" }, "Scaling needs all four values (or none).") : null);
  }

  async function submit() {
    const added = tags();
    if (preview.querySelector(".field-problem") || general.querySelector(".field-problem")) {
      throw new Error("Fix the problems shown first.");
    }
    const key = deviceKey(device.id) + ".opcua.tags";
    try {
      return await api.put("/api/v1/config/" + encodeURIComponent(key), { revision: read.fileRevision,
        value: [...existing, ...added], comment: `added ${added.length} tag(s) from the browse tree`, source: "console" });
    } catch (e) {
      if (e.status === 422 && e.body) {
        const prefix = key + "[";
        clear(general, h("ul", { class: "problems", "data-test": "problems" }, (e.body.problems || []).map((p) => {
          const index = p.key && p.key.startsWith(prefix) ? Number(p.key.slice(prefix.length).split("]")[0]) - existing.length : -1;
          const node = index >= 0 && nodes[index] ? ` (${nodes[index].displayName || nodes[index].nodeId})` : "";
          return h("li", {}, h("code", {}, p.key || "(file)"), node, " ", p.message);
        })));
        throw new Error("Not added: " + e.message);
      }
      if (e.status === 409) throw new Error("Not added: the configuration changed meanwhile; close this dialog and try again.");
      throw e;
    }
  }

  return formDialog({ id: "add-tags-dialog", title: `Add as tags: ${device.id}`, submitLabel: `Add ${nodes.length} tag${nodes.length === 1 ? "" : "s"}`,
    build, onSubmit: submit });
}
