// The pipeline editor of the Pipelines section: one dialog for a new pipeline or an existing one
// (pipelines.<id> of the configuration). The form holds the trigger (tag patterns, an interval or an
// MQTT device connection's topic filter), the filter, the transforms and the outputs with the mapping of
// each output's connection kind. Every expression is checked as it is typed (POST
// /api/v1/pipelines/check-expression, debounced) with the variables the pipeline offers at that place.
// "Try" runs the form's pipeline once over the current values (POST /api/v1/pipelines/try) and shows per
// event what each output would write; nothing is written. "Save" PUTs the section with the file revision
// read when the dialog opened, "Delete" removes it after a confirmation. A refusal keeps the dialog open:
// on 422 each problem stands under its field (by key path), on 409 the lines changed meanwhile are shown.
import { api, request } from "../api.js";
import { h, clear } from "../dom.js";
import { confirmDialog } from "../dialogs.js";

const KINDS = ["sql", "questdb", "mongodb", "mqtt"];
const CHECK_DELAY_MS = 300;
const ID = /^[A-Za-z0-9_-]+$/;

/**
 * Opens the editor for pipeline {@code id}, or for a new one when {@code id} is null. Resolves with
 * {action: "saved" | "deleted", id, answer} or null when closed without a change.
 */
export async function editPipeline(id) {
  const read = await api.get("/api/v1/config");
  const config = read.config || {};
  const outbound = Object.entries(config.outbound || {}).map(([cid, c]) => ({ id: cid, kind: kindOf(c) }));
  const mqttDevices = Object.entries(config.devices || {}).filter(([, d]) => d && d.mqtt).map(([did]) => did);
  const current = id ? (config.pipelines || {})[id] : null;
  if (id && !current) throw new Error(`The configuration has no pipeline '${id}'.`);
  return new Promise((resolve) => open(id, current, read.fileRevision, outbound, mqttDevices, resolve));
}

function kindOf(connection) {
  return Object.keys(connection || {}).find((key) => KINDS.includes(key)) || "unknown";
}

function open(id, current, revision, outbound, mqttDevices, resolve) {
  const fields = new Map(); // key path relative to pipelines.<id> -> { input, problem }
  const checks = []; // re-run when the trigger or the transforms change
  let result = null;

  const problemFor = (key) => h("span", { class: "field-problem", "data-test": "field-problem", "data-key": key,
    role: "alert" });
  const register = (key, input, problem) => {
    input.dataset.key = key;
    fields.set(key, { input, problem });
  };

  /** An input with its label, hint and problem line; {check} makes it an expression checked as typed. */
  function input(label, key, value, { check = null, hint = null, type = "text", rows = 0, placeholder = null } = {}) {
    const domId = "pe-" + key.replace(/[^A-Za-z0-9]+/g, "-");
    const element = rows ? h("textarea", { id: domId, rows, placeholder }) : h("input", { id: domId, type, placeholder });
    element.value = value ?? "";
    const problem = problemFor(key);
    register(key, element, problem);
    if (check) watch(element, problem, check);
    return h("div", { class: "field", "data-test": "pe-field", "data-key": key },
        h("label", { for: domId }, h("span", {}, label)), element,
        hint ? h("span", { class: "hint" }, hint) : null, problem);
  }

  /** Checks an expression field as it is typed; {check()} says which variables it may read. */
  function watch(element, problem, check) {
    let timer = null;
    let asked = 0;
    const run = async () => {
      const text = element.value;
      if (!text.trim()) {
        problem.textContent = "";
        element.removeAttribute("aria-invalid");
        return;
      }
      const mine = ++asked;
      try {
        const answer = await api.post("/api/v1/pipelines/check-expression", { expression: text, trigger: trigger(),
          transforms: check().transforms, template: Boolean(check().template) });
        if (mine !== asked) return;
        problem.textContent = answer.ok ? "" : answer.error + (answer.position ? ` (at ${answer.position})` : "");
        element.setAttribute("aria-invalid", answer.ok ? "false" : "true");
      } catch (e) {
        if (mine === asked) problem.textContent = e.message;
      }
    };
    element.addEventListener("input", () => {
      clearTimeout(timer);
      timer = setTimeout(run, CHECK_DELAY_MS);
    });
    checks.push(run);
  }
  const recheck = () => checks.forEach((run) => run());

  // ---- trigger
  const t = (current && current.trigger) || { tags: [] };
  const triggerKind = h("select", { id: "pe-trigger-kind", "data-test": "pe-trigger-kind" },
      h("option", { value: "tags" }, "Tag changes"), h("option", { value: "interval" }, "Interval"),
      h("option", { value: "mqtt" }, "MQTT messages"));
  triggerKind.value = t.interval_ms !== undefined ? "interval" : t.mqtt ? "mqtt" : "tags";
  const tagsField = input("Tag paths or patterns (one a line)", "trigger.tags", (t.tags || []).join("\n"),
      { rows: 2, placeholder: "plant/line1/**", hint: "* within one segment, ** across segments" });
  const intervalField = input("Every (ms)", "trigger.interval_ms", t.interval_ms ?? 60000, { type: "number" });
  const mqttConnection = h("select", { id: "pe-trigger-mqtt-connection" },
      mqttDevices.map((d) => h("option", { value: d }, d)));
  mqttConnection.value = (t.mqtt && t.mqtt.connection) || mqttDevices[0] || "";
  const mqttConnectionProblem = problemFor("trigger.mqtt.connection");
  register("trigger.mqtt.connection", mqttConnection, mqttConnectionProblem);
  const mqttTopicField = input("Topic filter", "trigger.mqtt.topic", t.mqtt && t.mqtt.topic, { placeholder: "plant/+/events" });
  const sampleTopic = h("input", { id: "pe-sample-topic", placeholder: "topic of the message to try" });
  const samplePayload = h("textarea", { id: "pe-sample-payload", rows: 2, placeholder: "{\"value\": 1}" });
  const mqttPart = h("div", { "data-test": "pe-trigger-mqtt" },
      h("div", { class: "field" }, h("label", { for: "pe-trigger-mqtt-connection" }, h("span", {}, "MQTT device connection")),
          mqttConnection, mqttConnectionProblem),
      mqttTopicField,
      h("div", { class: "field" }, h("label", { for: "pe-sample-topic" }, h("span", {}, "Message for Try")), sampleTopic,
          samplePayload));
  const showTrigger = () => {
    tagsField.hidden = triggerKind.value !== "tags";
    intervalField.hidden = triggerKind.value !== "interval";
    mqttPart.hidden = triggerKind.value !== "mqtt";
  };
  triggerKind.addEventListener("change", () => {
    showTrigger();
    recheck();
  });

  function trigger() {
    switch (triggerKind.value) {
      case "interval": return { interval_ms: Number(fields.get("trigger.interval_ms").input.value) };
      case "mqtt": return { mqtt: { connection: mqttConnection.value, topic: fields.get("trigger.mqtt.topic").input.value } };
      default: return { tags: fields.get("trigger.tags").input.value.split("\n").map((s) => s.trim()).filter(Boolean) };
    }
  }

  // ---- filter and transforms
  const filterField = input("Filter (optional)", "filter", current && current.filter,
      { check: () => ({ transforms: [] }), placeholder: "quality == 'GOOD'", hint: "events for which it is false stop here" });
  const transformRows = h("div", { "data-test": "pe-transforms" });
  const transforms = []; // { row, name, expression }
  function transformNames(before = transforms.length) {
    return transforms.slice(0, before).map((x) => x.name.value.trim()).filter(Boolean);
  }
  function addTransform(value = { name: "", expression: "" }) {
    const entry = {};
    const index = () => transforms.indexOf(entry);
    entry.name = h("input", { "aria-label": "Transform name", placeholder: "name", "data-test": "pe-transform-name",
      value: value.name });
    entry.expression = h("input", { "aria-label": "Transform expression", placeholder: "value * 1.8 + 32",
      "data-test": "pe-transform-expression", value: value.expression });
    entry.problem = problemFor("transforms");
    watch(entry.expression, entry.problem, () => ({ transforms: transformNames(index()) }));
    entry.name.addEventListener("input", recheck);
    const remove = h("button", { type: "button", "aria-label": "Remove transform", "data-test": "pe-transform-remove",
      onclick: () => {
        transforms.splice(index(), 1);
        entry.row.remove();
        recheck();
      } }, "Remove");
    entry.row = h("div", { class: "pe-row", "data-test": "pe-transform" }, entry.name, entry.expression, remove, entry.problem);
    transforms.push(entry);
    transformRows.append(entry.row);
  }
  ((current && current.transforms) || []).forEach(addTransform);

  // ---- outputs
  const outputRows = h("div", { "data-test": "pe-outputs" });
  const outputs = []; // { row, connection, value() }
  function addOutput(value = null) {
    const entry = {};
    const index = () => outputs.indexOf(entry);
    const everything = () => ({ transforms: transformNames() });
    entry.connection = h("select", { "aria-label": "Output connection", "data-test": "pe-output-connection" },
        outbound.map((c) => h("option", { value: c.id }, `${c.id} (${c.kind})`)));
    entry.connection.value = (value && value.connection) || (outbound[0] && outbound[0].id) || "";
    entry.problem = problemFor("outputs");
    const mapping = h("div", { class: "pe-mapping" });
    const build = () => {
      const i = index();
      const kind = (outbound.find((c) => c.id === entry.connection.value) || {}).kind;
      const m = (value && value[kind]) || {};
      const key = (k) => `outputs[${i}].${kind}.${k}`;
      const pairs = (label, k, map, placeholder) => pairEditor(label, key(k), map || {}, everything, placeholder);
      entry.parts = {};
      const part = (name, element) => {
        entry.parts[name] = element;
        return element;
      };
      switch (kind) {
        case "sql":
          clear(mapping, part("statement", input("Statement", key("statement"), m.statement,
              { rows: 2, placeholder: "INSERT INTO readings (ts, value) VALUES (:ts, :value)", hint: ":item_id is bound to the event's id" })),
          part("parameters", pairs("Parameters", "parameters", m.parameters, "value")));
          break;
        case "questdb":
          clear(mapping, part("table", input("Table", key("table"), m.table)),
              part("timestamp", input("Timestamp", key("timestamp"), m.timestamp ?? "now", { check: everything })),
              part("symbols", pairs("Symbols", "symbols", m.symbols, "path")),
              part("columns", pairs("Columns", "columns", m.columns, "value")));
          break;
        case "mongodb": {
          const mode = h("select", { id: `pe-o${i}-mode` }, h("option", { value: "insert" }, "insert"),
              h("option", { value: "upsert" }, "upsert"));
          mode.value = m.mode || "insert";
          const modeProblem = problemFor(key("mode"));
          register(key("mode"), mode, modeProblem);
          clear(mapping, part("collection", input("Collection", key("collection"), m.collection)),
              part("document", pairs("Document", "document", m.document, "value")),
              h("div", { class: "field" }, h("label", { for: `pe-o${i}-mode` }, h("span", {}, "Mode")), mode, modeProblem),
              part("key_fields", input("Key fields (comma separated, for upsert)", key("key_fields"), (m.key_fields || []).join(", "))));
          entry.parts.mode = mode;
          break;
        }
        case "mqtt":
          clear(mapping, part("topic", input("Topic", key("topic"), m.topic,
              { check: () => ({ ...everything(), template: true }), placeholder: "gateway/{{path}}" })),
          part("payload", input("Payload", key("payload"), m.payload, { check: everything, placeholder: "{'v': value}" })),
          part("qos", input("QoS", key("qos"), m.qos ?? 1, { type: "number" })),
          part("retain", input("Retain (true or false)", key("retain"), String(m.retain ?? false))));
          break;
        default:
          clear(mapping, h("p", { class: "hint" }, "Choose an outbound connection."));
      }
      entry.kind = kind;
      value = null; // a changed connection starts from an empty mapping
    };
    entry.value = () => {
      const p = entry.parts;
      const text = (name) => p[name].querySelector ? p[name].querySelector("input, textarea").value : p[name].value;
      const kinds = {
        sql: () => ({ statement: text("statement"), parameters: p.parameters.value() }),
        questdb: () => ({ table: text("table"), timestamp: text("timestamp") || "now", symbols: p.symbols.value(),
          columns: p.columns.value() }),
        mongodb: () => ({ collection: text("collection"), document: p.document.value(), mode: p.mode.value,
          key_fields: text("key_fields").split(",").map((s) => s.trim()).filter(Boolean) }),
        mqtt: () => ({ topic: text("topic"), payload: text("payload"), qos: Number(text("qos")),
          retain: text("retain").trim() === "true" }),
      };
      return kinds[entry.kind] ? { connection: entry.connection.value, [entry.kind]: kinds[entry.kind]() }
        : { connection: entry.connection.value };
    };
    entry.connection.addEventListener("change", build);
    const remove = h("button", { type: "button", "data-test": "pe-output-remove", onclick: () => {
      outputs.splice(index(), 1);
      entry.row.remove();
    } }, "Remove output");
    entry.row = h("fieldset", { class: "pe-output", "data-test": "pe-output" },
        h("legend", {}, "Output"), h("div", { class: "pe-row" }, entry.connection, remove), entry.problem, mapping);
    outputs.push(entry);
    outputRows.append(entry.row);
    build();
  }
  ((current && current.outputs) || [null]).forEach(addOutput);

  /** Rows of name and expression; its element has value() giving the map. */
  function pairEditor(label, key, map, check, placeholder) {
    const rows = h("div", {});
    const entries = [];
    const add = (name = "", expression = "") => {
      const entry = {
        name: h("input", { "aria-label": `${label} name`, placeholder: "name", value: name, "data-test": "pe-pair-name" }),
        expression: h("input", { "aria-label": `${label} expression`, placeholder, value: expression,
          "data-test": "pe-pair-expression" }),
      };
      entry.problem = problemFor(key);
      watch(entry.expression, entry.problem, check);
      entry.row = h("div", { class: "pe-row", "data-test": "pe-pair" }, entry.name, entry.expression,
          h("button", { type: "button", "aria-label": `Remove ${label} entry`, onclick: () => {
            entries.splice(entries.indexOf(entry), 1);
            entry.row.remove();
          } }, "Remove"), entry.problem);
      entry.name.addEventListener("input", () => register(`${key}.${entry.name.value.trim()}`, entry.expression, entry.problem));
      register(`${key}.${name}`, entry.expression, entry.problem);
      entries.push(entry);
      rows.append(entry.row);
    };
    Object.entries(map).forEach(([n, e]) => add(n, e));
    if (entries.length === 0) add();
    const problem = problemFor(key);
    const element = h("div", { class: "field", "data-test": "pe-pairs", "data-key": key }, h("span", {}, label), rows,
        h("button", { type: "button", class: "pe-add", onclick: () => add() }, `Add ${label.toLowerCase()} entry`), problem);
    fields.set(key, { input: rows, problem });
    element.value = () => Object.fromEntries(entries.filter((e) => e.name.value.trim())
        .map((e) => [e.name.value.trim(), e.expression.value]));
    return element;
  }

  // ---- the form
  const idInput = h("input", { id: "pe-id", value: id || "", disabled: Boolean(id), placeholder: "line1-counts",
    pattern: "[A-Za-z0-9_-]+", required: true });
  const idProblem = problemFor("");
  const enabled = h("input", { type: "checkbox", id: "pe-enabled" });
  enabled.checked = current ? current.enabled !== false : true;
  const comment = h("input", { id: "pe-comment", maxlength: 500, placeholder: "why (kept with the revision)" });
  const message = h("p", { class: "status-line", role: "status", "aria-live": "polite", "data-test": "dialog-message" });
  const conflict = h("div", { "data-test": "pe-conflict" });
  const tried = h("div", { id: "pe-tried", "data-test": "pe-tried" });
  const tryButton = h("button", { type: "button", id: "pe-try", "data-test": "pe-try" }, "Try");
  const save = h("button", { type: "submit", class: "primary", id: "pe-save", "data-test": "dialog-submit" }, "Save");
  const cancel = h("button", { type: "button", "data-test": "dialog-cancel" }, "Cancel");
  const remove = id ? h("button", { type: "button", class: "danger", id: "pe-delete", "data-test": "pe-delete" }, "Delete") : null;
  const form = h("form", { novalidate: true },
      h("h2", { id: "pipeline-editor-title" }, id ? `Pipeline ${id}` : "New pipeline"),
      h("div", { class: "field" }, h("label", { for: "pe-id" }, h("span", {}, "Id")), idInput,
          h("span", { class: "hint" }, "letters, digits, - and _"), idProblem),
      h("label", { class: "pe-check" }, enabled, " Enabled"),
      h("h3", {}, "Trigger"),
      h("div", { class: "field" }, h("label", { for: "pe-trigger-kind" }, h("span", {}, "Runs on")), triggerKind),
      tagsField, intervalField, mqttPart,
      h("h3", {}, "Filter and transforms"), filterField,
      h("div", { class: "field" }, h("span", {}, "Transforms (computed in order; each may use the ones before)"), transformRows,
          h("button", { type: "button", class: "pe-add", id: "pe-add-transform", onclick: () => addTransform() }, "Add transform")),
      h("h3", {}, "Outputs"), outputRows,
      h("button", { type: "button", class: "pe-add", id: "pe-add-output", onclick: () => addOutput() }, "Add output"),
      h("div", { class: "field" }, h("label", { for: "pe-comment" }, h("span", {}, "Comment")), comment),
      conflict, message, tried,
      h("div", { class: "buttons" }, remove, cancel, tryButton, save));
  const dialog = h("dialog", { id: "pipeline-editor", class: "wide", "aria-labelledby": "pipeline-editor-title" }, form);
  showTrigger();

  function pipelineId() {
    return id || idInput.value.trim();
  }

  function value() {
    const result = { enabled: enabled.checked, trigger: trigger() };
    const filter = fields.get("filter").input.value.trim();
    if (filter) result.filter = filter;
    result.transforms = transforms.filter((x) => x.name.value.trim() || x.expression.value.trim())
        .map((x) => ({ name: x.name.value.trim(), expression: x.expression.value }));
    result.outputs = outputs.map((o) => o.value());
    return result;
  }

  function clearProblems() {
    for (const { input, problem } of fields.values()) {
      problem.textContent = "";
      if (input.removeAttribute) input.removeAttribute("aria-invalid");
    }
    idProblem.textContent = "";
    conflict.replaceChildren();
  }

  /** Puts each 422 problem under its field; returns the sentences of those without one. */
  function placeProblems(problems) {
    const prefix = `pipelines.${pipelineId()}`;
    const elsewhere = [];
    // rows move when one is removed: their keys are given by their place now
    transforms.forEach((x, i) => {
      register(`transforms[${i}].expression`, x.expression, x.problem);
      register(`transforms[${i}].name`, x.name, x.problem);
    });
    outputs.forEach((o, i) => register(`outputs[${i}].connection`, o.connection, o.problem));
    for (const p of problems) {
      const key = String(p.key || "");
      const relative = key === prefix ? "" : key.startsWith(prefix + ".") ? key.slice(prefix.length + 1) : null;
      let target = null;
      // the field of that key, or of the nearest key above it (trigger.tags[1] -> trigger.tags)
      for (let k = relative; k && !target;) {
        target = fields.get(k) || null;
        const up = k.replace(/(\.[^.[\]]*|\[\d+\])$/, "");
        if (up === k) break;
        k = up;
      }
      if (relative === "") {
        idProblem.textContent = `${key}: ${p.message}`;
      } else if (target) {
        target.problem.textContent = `${key}: ${p.message}`;
        if (target.input.setAttribute) target.input.setAttribute("aria-invalid", "true");
      } else {
        elsewhere.push(`${key}: ${p.message}`);
      }
    }
    return elsewhere;
  }

  function refused(e, what) {
    const body = e.body || {};
    if (e.status === 422 && Array.isArray(body.problems)) {
      const elsewhere = placeProblems(body.problems);
      return [`${what}: the gateway refused it (nothing changed).`, ...elsewhere].join(" ");
    }
    if (e.status === 409) {
      conflict.append(h("p", { class: "alarm-banner" }, "The configuration changed meanwhile: nothing was saved. Close the "
          + "editor and open it again to start from the current file. Lines changed since:"),
      h("pre", { class: "diff", "data-test": "pe-diff" }, body.diff || "(not kept)"));
      return "Changed meanwhile: nothing was saved.";
    }
    return e.message;
  }

  function say(text, kind = "info") {
    message.textContent = text;
    message.className = "status-line " + kind;
  }

  function checkId() {
    if (!ID.test(pipelineId())) {
      idProblem.textContent = "an id holds letters, digits, - and _ only";
      return false;
    }
    return true;
  }

  tryButton.addEventListener("click", async () => {
    clearProblems();
    tried.replaceChildren();
    const body = { id: ID.test(pipelineId()) ? pipelineId() : "new", pipeline: value() };
    if (triggerKind.value === "mqtt") body.message = { topic: sampleTopic.value, payload: samplePayload.value };
    tryButton.disabled = true;
    say("Trying…");
    try {
      const answer = await api.post("/api/v1/pipelines/try", body);
      say(`Tried ${answer.events.length} ${answer.events.length === 1 ? "event" : "events"}: nothing was written.`, "ok");
      renderTried(tried, answer);
    } catch (e) {
      say(refused(e, "Not tried"), "error");
    } finally {
      tryButton.disabled = false;
    }
  });

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearProblems();
    if (!checkId()) {
      say("Give the pipeline an id: nothing was sent.", "error");
      return;
    }
    save.disabled = true;
    say("Saving…");
    try {
      const answer = await api.put("/api/v1/config/" + encodeURIComponent(`pipelines.${pipelineId()}`), {
        revision, value: value(), comment: comment.value || undefined, source: "console" });
      result = { action: "saved", id: pipelineId(), answer };
      dialog.close();
    } catch (e) {
      say(refused(e, "Not saved"), "error");
      save.disabled = false;
    }
  });

  if (remove) {
    remove.addEventListener("click", async () => {
      const sure = await confirmDialog({ title: `Delete pipeline ${id}?`, message: "The pipeline stops and its section "
          + "is removed from the configuration file (kept in the revisions).", confirmLabel: "Delete", danger: true });
      if (!sure) return;
      clearProblems();
      say("Deleting…");
      try {
        const answer = await request("DELETE", "/api/v1/config/" + encodeURIComponent(`pipelines.${id}`),
            { revision, comment: comment.value || undefined, source: "console" });
        result = { action: "deleted", id, answer };
        dialog.close();
      } catch (e) {
        say(refused(e, "Not deleted"), "error");
      }
    });
  }

  cancel.addEventListener("click", () => dialog.close());
  dialog.addEventListener("close", () => {
    resolve(result);
    dialog.remove();
  });
  document.body.append(dialog);
  dialog.showModal();
  (id ? triggerKind : idInput).focus();
}

/**
 * Per event: its trigger variables, what came of it, the value each transform computed, and per output the
 * item it would have written.
 */
function renderTried(holder, answer) {
  if (answer.events.length === 0) {
    clear(holder, h("p", { class: "state empty", "data-test": "pe-tried-empty" },
        "No event: no tag matching the trigger has a value yet."));
    return;
  }
  const list = h("ol", { class: "pe-events" });
  for (const event of answer.events) {
    const vars = Object.entries(event.variables || {}).filter(([k]) => ["path", "value", "quality", "topic", "payload"]
        .includes(k)).map(([k, v]) => `${k}=${typeof v === "object" ? JSON.stringify(v) : v}`).join("  ");
    const kind = event.outcome === "emitted" ? "ok" : event.outcome === "filtered" ? "warn" : "alarm";
    list.append(h("li", { "data-test": "pe-event", "data-outcome": event.outcome },
        h("span", { class: "pill " + kind }, event.outcome), " ", h("span", { class: "mono" }, vars || "(no trigger variables)"),
        event.error ? h("div", { class: "error-text", "data-test": "pe-event-error" }, event.error) : null,
        Object.keys(event.transforms || {}).length ? h("div", { "data-test": "pe-event-transforms" },
            h("span", { class: "sub" }, "transforms: "), h("span", { class: "mono" }, Object.entries(event.transforms)
                .map(([k, v]) => `${k}=${typeof v === "object" ? JSON.stringify(v) : v}`).join("  "))) : null,
        (event.outputs || []).map((o) => h("div", { "data-test": "pe-event-output" },
            h("span", { class: "sub" }, `${o.connection} (${o.kind}) would get:`),
            h("pre", { class: "preview" }, o.item)))));
  }
  clear(holder, h("h3", {}, "Try: what would be written (nothing was)"), list);
}
