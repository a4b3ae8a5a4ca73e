// Adding and editing an outbound connection (Edit connections), on the Connections page. The dialog holds
// the scalar keys of one kind's section (sql, questdb, mongodb, mqtt) as the configuration schema declares
// them, with their defaults, ranges and choices, each checked as it is typed. Save sends
// outbound.<id> whole (its store_and_forward section kept as it was) on the file revision read when the
// dialog opened. A secret key (a password) left empty keeps its value; typed, it goes to the gateway's
// secrets store and the file names it. Editing an existing connection applies live (its sink is replaced,
// its backlog kept); a new one waits for a restart of the gateway, which the answer says. A 422 puts each
// problem next to its field; a 409 says the file changed meanwhile. Keys under a nested section (TLS files,
// ...) are not shown and are sent back as they were. "Test connection" probes the settings as typed with a
// sink of their own (POST /api/v1/outbound/test) without saving or changing anything.
import { api } from "../api.js";
import { h, clear } from "../dom.js";
import { formDialog } from "../dialogs.js";
import { plain } from "./schema-keys.js";

const ID = /^[A-Za-z0-9_-]+$/;
export const OUTBOUND_KINDS = ["sql", "questdb", "mongodb", "mqtt"];
const UNIT_TEXT = { milliseconds: "ms", seconds: "s", bytes: "bytes" };

function outboundKey(id) {
  return "outbound." + (ID.test(id) ? id : JSON.stringify(id));
}

/** The schema of one outbound kind's section: the variant of outbound.<name> that requires it. */
function sectionSchema(schema, kind) {
  const outbound = schema && schema.properties && schema.properties.outbound;
  const variants = (outbound && outbound.additionalProperties && outbound.additionalProperties.oneOf) || [];
  const variant = variants.find((v) => v.properties && v.properties[kind]);
  return (variant && variant.properties[kind]) || { properties: {} };
}

/**
 * Opens the dialog: {@code id} null adds a connection of {@code kind}, otherwise edits connection id.
 * Resolves with {id, written} once saved, or null when cancelled.
 */
export async function editOutbound({ id, kind }) {
  const [config, schema] = await Promise.all([api.get("/api/v1/config"), api.get("/api/v1/config/schema")]);
  const all = (config.config && config.config.outbound) || {};
  const adding = id == null;
  const current = adding ? { [kind]: {} } : JSON.parse(JSON.stringify(all[id] || null));
  if (!current) throw new Error(`The configuration has no outbound connection '${id}'.`);
  const theKind = adding ? kind : OUTBOUND_KINDS.find((k) => current[k]);
  if (!theKind) throw new Error("Connections of this kind cannot be edited here.");
  const section = sectionSchema(schema, theKind);
  const keys = Object.keys(section.properties || {}).filter((k) => {
    const spec = plain(section.properties[k]);
    return spec.type !== "object" && spec.type !== "array" && !spec.properties;
  });
  const inputs = new Map();
  let idInput = null;
  let general = null;
  const connectionId = () => (adding ? idInput.value.trim() : id);

  function field(key) {
    const spec = plain(section.properties[key]);
    const domId = "of-" + key;
    const value = current[theKind][key];
    const unit = UNIT_TEXT[spec["x-unit"]] || spec["x-unit"] || "";
    const secret = spec.writeOnly === true;
    let input;
    if (spec.type === "boolean") {
      input = h("input", { type: "checkbox", id: domId, "data-key": key });
      input.checked = value === undefined ? Boolean(spec.default) : Boolean(value);
    } else if (spec.enum) {
      input = h("select", { id: domId, "data-key": key }, spec.enum.map((v) => h("option", { value: v }, v)));
      input.value = value ?? spec.default ?? spec.enum[0];
    } else if (spec.type === "integer" || spec.type === "number") {
      input = h("input", { type: "number", id: domId, "data-key": key, step: spec.type === "integer" ? 1 : "any",
        min: spec.minimum, max: spec.maximum, placeholder: spec.default === undefined ? "" : `default ${spec.default}` });
      input.value = value === undefined ? "" : value;
    } else {
      input = h("input", { type: secret ? "password" : "text", id: domId, "data-key": key,
        autocomplete: secret ? "new-password" : "off",
        placeholder: secret && value !== undefined ? "unchanged (kept in the gateway)"
          : spec.default === undefined ? "" : `default ${spec.default}` });
      input.value = secret ? "" : value ?? "";
    }
    const problem = h("span", { class: "field-problem", id: domId + "-problem", "data-key": key, role: "alert" });
    input.addEventListener("input", validate);
    inputs.set(key, { input, problem, spec, secret });
    return h("div", { class: "field setting", "data-key": key },
        h("label", { for: domId }, h("span", {}, key), unit ? h("span", { class: "unit" }, ` (${unit})`) : null),
        spec.type === "boolean" ? h("div", {}, input) : input,
        h("span", { class: "hint" }, secret ? "Left empty: unchanged. Typed: kept in the gateway's secrets store."
          : spec.description || ""),
        problem);
  }

  function validate() {
    let fine = true;
    for (const [key, { input, problem, spec }] of inputs) {
      let text = "";
      if (key === "id") {
        const value = input.value.trim();
        text = !value ? "an id is required" : !ID.test(value) ? "letters, digits, - and _ only"
          : all[value] ? `a connection '${value}' exists already` : "";
      } else if (input.type === "number" && input.value !== "") {
        const n = Number(input.value);
        if (!Number.isFinite(n)) text = "must be a number";
        else if (spec.type === "integer" && !Number.isInteger(n)) text = "must be a whole number";
        else if (spec.minimum !== undefined && n < spec.minimum) text = `must be at least ${spec.minimum}`;
        else if (spec.maximum !== undefined && n > spec.maximum) text = `must be at most ${spec.maximum}`;
      }
      problem.textContent = text;
      input.setAttribute("aria-invalid", String(Boolean(text)));
      if (text) fine = false;
    }
    return fine;
  }

  function value() {
    const result = JSON.parse(JSON.stringify(current));
    const out = result[theKind];
    for (const [key, { input, spec, secret }] of inputs) {
      if (key === "id") continue;
      let v;
      if (spec.type === "boolean") v = input.checked;
      else if (input.type === "number") v = input.value === "" ? undefined : Number(input.value);
      else v = input.value.trim() === "" ? undefined : input.value.trim();
      if (secret && v === undefined) continue; // empty: the masked value stays as read
      if (adding && v !== undefined && v === spec.default) continue; // a new connection's file lists only choices
      if (v === undefined) delete out[key];
      else out[key] = v;
    }
    return result;
  }

  async function testConnection(line) {
    clear(general);
    if (!validate()) {
      line.textContent = "Correct the fields marked first.";
      return;
    }
    line.className = "status-line";
    line.textContent = "Testing…";
    try {
      const t = await api.post("/api/v1/outbound/test", { id: connectionId() || "test", value: value() });
      line.className = "status-line " + (t.ok ? "ok" : "error");
      line.dataset.ok = String(t.ok);
      line.textContent = `${t.ok ? "OK" : "Failed"} · reachable: ${t.reachable ? "yes" : "no"}`
          + `${t.latencyMs == null ? "" : " · " + t.latencyMs + " ms"} — ${t.message}`;
    } catch (e) {
      line.className = "status-line error";
      const problems = e.body && Array.isArray(e.body.problems) ? e.body.problems : [];
      line.textContent = problems.length ? problems.map((p) => `${p.key}: ${p.message}`).join("; ") : e.message;
    }
  }

  return formDialog({
    id: "outbound-dialog",
    title: adding ? `New ${theKind} outbound connection` : `Outbound connection ${id} (${theKind})`,
    submitLabel: "Save",
    build(fields) {
      fields.closest("form").noValidate = true;
      fields.closest("dialog").classList.add("wide");
      fields.append(h("p", { class: "hint" }, adding ? "A new connection is written to the configuration file and "
          + "starts at once, without a restart; pipelines can then write to it."
          : "A change replaces the connection's sink while it runs; its backlog and quarantine are kept."));
      if (adding) {
        idInput = h("input", { type: "text", id: "of-id", "data-key": "id", placeholder: "plant-db" });
        const problem = h("span", { class: "field-problem", id: "of-id-problem", "data-key": "id", role: "alert" });
        idInput.addEventListener("input", validate);
        inputs.set("id", { input: idInput, problem, spec: {} });
        fields.append(h("div", { class: "field setting" }, h("label", { for: "of-id" }, h("span", {}, "Connection id")),
            idInput, problem));
      }
      for (const key of keys) fields.append(field(key));
      general = h("div", { id: "of-problems" });
      const testLine = h("p", { class: "status-line", id: "of-test-result", role: "status" });
      fields.append(h("div", { class: "buttons" }, h("button", { type: "button", id: "of-test",
        onclick: () => testConnection(testLine) }, "Test connection")), testLine, general);
      validate();
    },
    async onSubmit() {
      clear(general);
      if (!validate()) throw new Error("Correct the fields marked first.");
      const target = connectionId();
      try {
        const written = await api.put(`/api/v1/config/${encodeURIComponent(outboundKey(target))}`,
            { revision: config.fileRevision, value: value(), source: "console",
              comment: adding ? `added outbound ${target}` : `changed outbound ${target}` });
        return { id: target, written };
      } catch (e) {
        if (e.status === 409) throw new Error("The configuration file changed since this form opened: close it and "
            + "open it again.");
        const problems = e.body && Array.isArray(e.body.problems) ? e.body.problems : [];
        const prefix = outboundKey(target) + "." + theKind + ".";
        const rest = [];
        for (const p of problems) {
          const key = (p.key || "").startsWith(prefix) ? p.key.slice(prefix.length) : null;
          if (key && inputs.has(key)) inputs.get(key).problem.textContent = p.message;
          else rest.push(p);
        }
        if (rest.length) {
          general.append(h("ul", { class: "problems" }, rest.map((p) => h("li", {}, h("code", {}, p.key || "(file)"),
              " ", p.message))));
        }
        throw problems.length ? new Error("Not saved: see the problems marked.") : e;
      }
    },
  });
}
