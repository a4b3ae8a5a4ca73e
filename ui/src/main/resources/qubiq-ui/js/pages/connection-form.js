// Adding and editing a device connection (Edit connections), on the Connections page. The dialog holds
// the keys of one kind's section (OPC UA or MQTT) with the schema's defaults, ranges and choices, checks
// them as they are typed, and offers "Test connection" (POST /api/v1/connections/test) before saving.
// Save sends the whole value of devices.<id> with the file revision read when the dialog opened
// (PUT /api/v1/config/devices.<id>); keys the form does not show (tags, timeouts, ...) are sent back as
// they were. On 422 each problem stands next to its field, on 409 the lines changed meanwhile are
// shown; on 200 the dialog closes and the caller is told what was applied live. A password field left
// empty keeps the password as it is (sent back masked); one typed goes to the gateway's secrets store, and
// the file gets a ${secret:NAME} reference, never the password itself.
import { api } from "../api.js";
import { h, clear } from "../dom.js";
import { formDialog } from "../dialogs.js";
import { subscriptionEditor } from "./mqtt-topics.js";
import { plain } from "./schema-keys.js";

const ID = /^[A-Za-z0-9_-]+$/;
const UNIT_TEXT = { milliseconds: "ms", seconds: "s", bytes: "bytes" };

/** The fields of each kind, as key paths inside devices.<id> (the form's data-key and the problems' suffix). */
const FIELDS = {
  opcua: [
    { key: "opcua.endpoint_url", label: "Endpoint URL", required: true, placeholder: "opc.tcp://plc1.plant:4840" },
    { key: "opcua.security_policy", label: "Security policy" },
    { key: "opcua.security_mode", label: "Security mode" },
    { key: "opcua.identity.type", label: "User identity", choices: ["anonymous", "username"] },
    { key: "opcua.identity.username", label: "User name", when: (v) => v["opcua.identity.type"] === "username" },
    { key: "opcua.mode", label: "Acquisition" },
    { key: "opcua.publishing_interval_ms", label: "Publishing interval" },
    { key: "opcua.tag_defaults.sampling_interval_ms", label: "Default sampling interval" },
    { key: "opcua.polling_interval_ms", label: "Polling interval" },
    { key: "opcua.request_timeout_ms", label: "Request timeout" },
  ],
  mqtt: [
    { key: "mqtt.host", label: "Broker host", required: true, placeholder: "broker.plant" },
    { key: "mqtt.port", label: "Port" },
    { key: "mqtt.protocol", label: "Protocol" },
    { key: "mqtt.tls", label: "TLS" },
    { key: "mqtt.tls_verify", label: "Verify the broker's certificate" },
    { key: "mqtt.client_id", label: "Client id", placeholder: "left out: qubiq-<gateway>-<connection>" },
    { key: "mqtt.username", label: "User name" },
    { key: "mqtt.clean_session", label: "Clean session" },
    { key: "mqtt.keep_alive_s", label: "Keep alive" },
  ],
};

/** The device connections of the configuration, the file revision to change them on, and what waits for a restart. */
export async function readDevices() {
  const answer = await api.get("/api/v1/config");
  return {
    fileRevision: answer.fileRevision,
    pendingRestart: answer.pendingRestart || [],
    fromEnvironment: answer.fromEnvironment || [],
    devices: (answer.config && answer.config.devices) || {},
  };
}

/** The kind of a devices.<id> value: its section key. */
export function kindOf(value) {
  return value && value.opcua ? "opcua" : value && value.mqtt ? "mqtt" : "unknown";
}

/** The key path of a connection, quoted when its id needs it. */
export function deviceKey(id) {
  return "devices." + (ID.test(id) ? id : JSON.stringify(id));
}

/** The schema of one kind's section: the variant of devices.<name> that requires it. */
export function kindSchema(schema, kind) {
  const devices = schema && schema.properties && schema.properties.devices;
  const variants = (devices && devices.additionalProperties && devices.additionalProperties.oneOf) || [];
  const variant = variants.find((v) => v.properties && v.properties[kind]);
  return { section: (variant && variant.properties[kind]) || { properties: {} },
    enabled: (variant && variant.properties.enabled) || { type: "boolean", default: true } };
}

/** The schema of a key path inside the kind's section ("opcua.tag_defaults.sampling_interval_ms"). */
function specAt(section, key) {
  let node = section;
  for (const part of key.split(".").slice(1)) {
    if (!node) return {};
    if (node.oneOf && part === "type") return { type: "string" };
    if (node.oneOf) node = node.oneOf.find((v) => v.properties && v.properties[part]) || {};
    node = node.properties ? node.properties[part] : undefined;
  }
  return plain(node);
}

function getPath(object, key) {
  return key.split(".").reduce((node, part) => (node == null ? undefined : node[part]), object);
}

function setPath(object, key, value) {
  const parts = key.split(".");
  let node = object;
  for (const part of parts.slice(0, -1)) {
    if (node[part] == null || typeof node[part] !== "object") node[part] = {};
    node = node[part];
  }
  if (value === undefined) delete node[parts[parts.length - 1]];
  else node[parts[parts.length - 1]] = value;
}

/**
 * Opens the dialog. {@code id} null adds a connection of {@code kind}; otherwise edits connection id.
 * Resolves with {id, written} once saved, or null when cancelled.
 */
export async function editConnection({ id, kind }) {
  const [read, schema] = await Promise.all([readDevices(), api.get("/api/v1/config/schema")]);
  const adding = id == null;
  const current = adding ? { [kind]: kind === "opcua" ? { tags: [] } : { subscriptions: [] } } : read.devices[id];
  if (!current) throw new Error(`The configuration has no device connection '${id}'.`);
  const theKind = adding ? kind : kindOf(current);
  if (!FIELDS[theKind]) throw new Error(`Connections of this kind cannot be edited here.`);
  const { section, enabled: enabledSpec } = kindSchema(schema, theKind);
  const inputs = new Map(); // key -> { input, problem, spec, row }
  const pending = !adding && read.pendingRestart.includes("device:" + id);
  const envKeys = new Map(read.fromEnvironment.map((e) => [e.key, e.variables]));
  let idInput = null;
  let general = null;
  let testLine = null;
  let subscriptions = null;
  let commentInput = null;
  let passwordInput = null;

  const connectionId = () => (adding ? idInput.value.trim() : id);
  const prefix = () => deviceKey(connectionId()) + ".";

  function field(key, { label, required, placeholder, choices }) {
    const spec = key === "enabled" ? enabledSpec : specAt(section, key);
    const domId = "cf-" + key.replaceAll(".", "-");
    const value = getPath(current, key);
    const unit = UNIT_TEXT[spec["x-unit"]] || spec["x-unit"] || "";
    const fromEnv = !adding && envKeys.get(deviceKey(id) + "." + key);
    let input;
    if (spec.type === "boolean") {
      input = h("input", { type: "checkbox", id: domId, "data-key": key });
      input.checked = value === undefined ? Boolean(spec.default) : Boolean(value);
    } else if (choices || spec.enum) {
      input = h("select", { id: domId, "data-key": key }, (choices || spec.enum).map((v) => h("option", { value: v }, v)));
      input.value = value ?? spec.default ?? (choices || spec.enum)[0];
    } else if (spec.type === "integer" || spec.type === "number") {
      input = h("input", { type: "number", id: domId, "data-key": key, step: spec.type === "integer" ? 1 : "any",
        min: spec.minimum, max: spec.maximum, placeholder: spec.default === undefined ? "" : `default ${spec.default}` });
      input.value = value === undefined || value === spec.default && adding ? "" : value;
    } else {
      input = h("input", { type: "text", id: domId, "data-key": key, placeholder: placeholder || "",
        required: required || false, autocomplete: "off" });
      input.value = value ?? "";
    }
    if (fromEnv) input.disabled = true;
    const problem = h("span", { class: "field-problem", id: domId + "-problem", "data-test": "field-problem",
      "data-key": key, role: "alert" });
    input.setAttribute("aria-describedby", domId + "-problem");
    const range = spec.minimum !== undefined || spec.maximum !== undefined
      ? ` Allowed: ${spec.minimum ?? "…"} to ${spec.maximum ?? "…"}.` : "";
    const row = h("div", { class: "field setting", "data-test": "setting", "data-key": key },
        h("label", { for: domId }, h("span", {}, label), unit ? h("span", { class: "unit" }, ` (${unit})`) : null),
        spec.type === "boolean" ? h("div", {}, input) : input,
        h("span", { class: "hint" }, fromEnv ? `From the environment (${fromEnv.map((v) => "${" + v + "}").join(", ")}):`
            + " change the variable, not the key." : (spec.description || "") + range),
        problem);
    inputs.set(key, { input, problem, spec, required, row });
    input.addEventListener("input", validate);
    input.addEventListener("change", validate);
    return row;
  }

  function build(fields) {
    fields.closest("form").noValidate = true;
    fields.closest("dialog").classList.add("wide");
    idInput = adding ? h("input", { type: "text", id: "cf-id", "data-key": "id", required: true,
      placeholder: "plc2", pattern: "[A-Za-z0-9_-]+" }) : null;
    const idProblem = h("span", { class: "field-problem", id: "cf-id-problem", "data-key": "id", role: "alert" });
    clear(fields,
        h("p", { class: "hint" }, adding ? `A new ${theKind === "opcua" ? "OPC UA" : "MQTT"} connection. It starts as soon as`
            + " it is saved; the other connections keep running." : `Connection ${id} (${theKind}). A change restarts`
            + " only this connection."),
        pending ? h("p", { class: "alarm-banner", "data-test": "settings-pending" }, "This connection's section in the"
            + " file holds a change that waits for a restart: the values below are the running ones.") : null,
        adding ? h("div", { class: "field setting", "data-key": "id" }, h("label", { for: "cf-id" }, h("span", {}, "Connection id")),
            idInput, h("span", { class: "hint" }, "Letters, digits, - and _; used in tag paths and the API."), idProblem) : null);
    if (adding) {
      inputs.set("id", { input: idInput, problem: idProblem, spec: {}, required: true });
      idInput.addEventListener("input", validate);
    }
    for (const definition of FIELDS[theKind]) fields.append(field(definition.key, definition));
    fields.append(field("enabled", { label: "Enabled" }));
    if (theKind === "opcua") {
      const identity = getPath(current, "opcua.identity") || {};
      fields.append(passwordField(identity.password !== undefined, "opcua.identity.type"));
      fields.append(h("p", { class: "hint" }, `Tags: ${(current.opcua.tags || []).length} (add them from the Browse tree).`));
    } else {
      subscriptions = subscriptionEditor(current.mqtt.subscriptions || [], section);
      fields.append(subscriptions.element);
      fields.append(passwordField(current.mqtt.password !== undefined, null));
    }
    commentInput = h("input", { type: "text", id: "cf-comment", maxlength: 500, placeholder: "why (kept with the revision)" });
    fields.append(h("label", { class: "field" }, h("span", {}, "Comment"), commentInput));
    testLine = h("p", { class: "status-line", id: "cf-test-result", "data-test": "test-result", role: "status" });
    fields.append(h("div", { class: "buttons" },
        h("button", { type: "button", id: "cf-test", onclick: testConnection }, "Test connection")), testLine);
    general = h("div", { id: "cf-problems", "data-test": "settings-conflict" });
    fields.append(general);
    validate();
  }

  /**
   * The password: empty keeps the one the file holds (masked); typed, it goes to the secrets store. For OPC UA
   * only with a user name identity ({@code whenKey} names the identity type's input).
   */
  function passwordField(kept, whenKey) {
    passwordInput = h("input", { type: "password", id: "cf-password", autocomplete: "new-password",
      placeholder: kept ? "unchanged (kept in the gateway)" : "" });
    const row = h("div", { class: "field setting", "data-test": "password-field" },
        h("label", { for: "cf-password" }, h("span", {}, "Password")), passwordInput,
        h("span", { class: "hint", "data-test": "password-note" }, (kept ? "Leave empty to keep the current password. "
          : "") + "A password typed here is kept in the gateway's secrets store (owner-only, in its data directory);"
          + " the configuration file and its history only name it."));
    if (whenKey) {
      const follow = () => { row.hidden = inputs.get(whenKey).input.value !== "username"; };
      inputs.get(whenKey).input.addEventListener("change", follow);
      follow();
    }
    return row;
  }

  /** Shows each field's own problem as it is typed; answers whether every field is fine. */
  function validate() {
    let fine = true;
    const values = Object.fromEntries([...inputs].map(([key, { input }]) => [key, input.value]));
    for (const [key, { input, problem, spec, required, row }] of inputs) {
      const definition = (FIELDS[theKind] || []).find((d) => d.key === key);
      const shown = !definition || !definition.when || definition.when(values);
      if (row) row.hidden = !shown;
      let text = "";
      if (shown && key === "id") {
        const value = input.value.trim();
        text = !value ? "an id is required" : !ID.test(value) ? "letters, digits, - and _ only"
            : read.devices[value] ? `a connection '${value}' exists already` : "";
      } else if (shown && input.type === "number" && input.value !== "") {
        const n = Number(input.value);
        if (!Number.isFinite(n)) text = "must be a number";
        else if (spec.type === "integer" && !Number.isInteger(n)) text = "must be a whole number";
        else if (spec.minimum !== undefined && n < spec.minimum) text = `must be at least ${spec.minimum}`;
        else if (spec.maximum !== undefined && n > spec.maximum) text = `must be at most ${spec.maximum}`;
      } else if (shown && required && input.type === "text" && !input.value.trim()) {
        text = "required";
      }
      if (!text && key === "opcua.endpoint_url" && input.value.trim() && !input.value.trim().startsWith("opc.tcp://")) {
        text = "must start with opc.tcp://";
      }
      problem.textContent = text;
      input.setAttribute("aria-invalid", String(Boolean(text)));
      if (text) fine = false;
    }
    return fine;
  }

  /** The value of devices.<id>: the section as it was, with the form's keys set. */
  function value() {
    const result = JSON.parse(JSON.stringify(current));
    for (const [key, { input, spec, row }] of inputs) {
      if (key === "id" || input.disabled) continue;
      if (row && row.hidden) {
        if (key === "opcua.identity.username") setPath(result, key, undefined);
        continue;
      }
      let v;
      if (spec.type === "boolean") v = input.checked;
      else if (input.type === "number") v = input.value === "" ? undefined : Number(input.value);
      else v = input.value.trim() === "" ? undefined : input.value.trim();
      if (adding && v !== undefined && v === spec.default && key !== "enabled") v = undefined;
      if (key === "enabled" && v === true && getPath(current, key) === undefined) v = undefined;
      setPath(result, key, v);
    }
    if (theKind === "opcua") {
      const identity = result.opcua.identity || {};
      if (identity.type === "anonymous") {
        if (adding) delete result.opcua.identity;
        else result.opcua.identity = { type: "anonymous" };
      } else if (identity.type === "username") {
        const before = getPath(current, "opcua.identity") || {};
        result.opcua.identity = { type: "username", username: identity.username || "" };
        if (passwordInput && passwordInput.value) result.opcua.identity.password = passwordInput.value;
        else if (before.type === "username" && before.password !== undefined) result.opcua.identity.password = before.password;
      }
      if (result.opcua.tag_defaults && Object.keys(result.opcua.tag_defaults).length === 0) delete result.opcua.tag_defaults;
    } else {
      result.mqtt.subscriptions = subscriptions.value();
      if (passwordInput && passwordInput.value) result.mqtt.password = passwordInput.value;
    }
    return result;
  }

  function clearProblems() {
    clear(general);
    if (subscriptions) subscriptions.clearProblems();
    validate();
  }

  /** Puts each problem next to its field (by key path), the rest in the list under the form. */
  function showProblems(problems) {
    const base = prefix();
    const rest = [];
    for (const problem of problems || []) {
      const key = (problem.key || "").startsWith(base) ? problem.key.slice(base.length) : "";
      const target = [...inputs.keys()].filter((k) => key === k || key.startsWith(k + "."))
          .sort((a, b) => b.length - a.length)[0];
      if (target) inputs.get(target).problem.textContent = problem.message;
      else if (!(subscriptions && subscriptions.show(key, problem.message))) rest.push(problem);
    }
    if (rest.length) {
      general.append(h("ul", { class: "problems", "data-test": "problems" },
          rest.map((p) => h("li", { "data-key": p.key }, h("code", {}, p.key || "(file)"), " ", p.message))));
    }
  }

  async function testConnection() {
    clearProblems();
    if (!validate()) {
      testLine.className = "status-line error";
      testLine.textContent = "Fix the fields marked above first.";
      return;
    }
    testLine.className = "status-line";
    testLine.textContent = "Testing…";
    try {
      const result = await api.post("/api/v1/connections/test", { id: connectionId(), value: value() });
      testLine.className = "status-line " + (result.ok ? "ok" : "error");
      testLine.dataset.ok = String(result.ok);
      clear(testLine, h("strong", {}, result.ok ? "OK" : "Failed"), " · ",
          `reachable: ${result.reachable ? "yes" : "no"}`,
          ` · authenticated: ${result.authenticated == null ? "not tried" : result.authenticated ? "yes" : "no"}`,
          ` · certificate: ${result.certificate.replaceAll("_", " ")}`,
          result.latencyMs == null ? "" : ` · ${result.latencyMs} ms`, h("br"), result.message);
    } catch (e) {
      testLine.className = "status-line error";
      testLine.dataset.ok = "false";
      testLine.textContent = e.status === 422 ? "Not tested: " + e.message : e.message;
      if (e.status === 422 && e.body) showProblems(e.body.problems);
    }
  }

  async function submit(_form, message) {
    clearProblems();
    if (!validate()) throw new Error("Fix the fields marked above first.");
    const comment = commentInput.value.trim();
    const key = deviceKey(connectionId());
    try {
      const written = await api.put("/api/v1/config/" + encodeURIComponent(key),
          { revision: read.fileRevision, value: value(), comment, source: "console" });
      return { id: connectionId(), written };
    } catch (e) {
      if (e.status === 422 && e.body) {
        showProblems(e.body.problems);
        throw new Error("Not saved: " + e.message);
      }
      if (e.status === 409 && e.body) {
        clear(general, h("p", { class: "error" }, "Someone changed the configuration since this dialog opened: close it,"
            + " open it again and make the change again."), e.body.diff ? h("pre", { class: "diff" }, e.body.diff) : null);
        throw new Error("Not saved: the configuration changed meanwhile (now " + (e.body.currentRevision || "?") + ").");
      }
      message.textContent = "";
      throw e;
    }
  }

  return formDialog({ id: "connection-dialog", title: adding ? "Add connection" : `Edit connection ${id}`,
    submitLabel: "Save", build, onSubmit: submit });
}
