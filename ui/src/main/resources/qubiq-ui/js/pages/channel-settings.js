// A channel's store-and-forward settings on the Store & Forward page: the summary each row shows
// (overflow policy, durability) and the Edit dialog. The dialog holds one labelled input per key of
// outbound.<id>.store_and_forward with its unit and the schema's range, checks each as it is typed
// (range, low water below high water), and sends the whole section with the file revision read when
// it opened (PUT /api/v1/config/...). Nothing partial: on 422 each problem stands next to its field,
// on 409 the lines changed meanwhile are shown, and the dialog stays open; a max_bytes below the
// channel's backlog is asked about first (keep it until it drains, or drop the oldest now, recorded in
// the loss ledger), before Apply sends anything, and again if the gateway answers 409 because the
// backlog grew meanwhile; Apply sends the choice as onShrink; on 200 it closes and the
// caller is told what was applied live and what waits for a restart. Only outbound connections of the
// configuration are editable here: the historian's and the audit journal's channels are not.
import { api } from "../api.js";
import { h, clear } from "../dom.js";
import { formDialog } from "../dialogs.js";

const SECTION = "store_and_forward";

/** The keys in the order the dialog shows them; the rest of the schema's keys follow. */
const ORDER = ["max_bytes", "segment_bytes", "high_water_percent", "low_water_percent", "overflow_policy",
  "durability", "fsync_interval_ms", "batch_max_items", "batch_max_bytes", "linger_ms", "backoff_initial_ms",
  "backoff_max_ms", "max_delivery_attempts", "quarantine_max_bytes", "fast_path"];

const UNIT_TEXT = { bytes: "bytes", percent: "%", milliseconds: "ms", seconds: "s" };

/** The configuration read for the page: its file revision and, per outbound connection, kind and section. */
export async function readChannelSettings() {
  const answer = await api.get("/api/v1/config");
  const outbound = (answer.config && answer.config.outbound) || {};
  const channels = new Map();
  for (const [id, connection] of Object.entries(outbound)) {
    const kind = Object.keys(connection || {}).find((key) => key !== SECTION) || "unknown";
    channels.set(id, { kind, settings: { ...((connection || {})[SECTION] || {}) } });
  }
  return { fileRevision: answer.fileRevision, pendingRestart: answer.pendingRestart || [], channels };
}

/**
 * "drop_oldest" or "default for sql (refuse)": the file's value, or the kind's default with the policy
 * the channel reports in force ({@code inForce}, from its status; the page never guesses it per kind).
 */
export function policyText(entry, inForce) {
  const explicit = entry.settings.overflow_policy;
  if (explicit) return explicit;
  return `default for ${entry.kind}` + (inForce ? ` (${inForce})` : "");
}

/** The store_and_forward record of the schema: the first property of that name found. */
function sectionSchema(schema) {
  const seen = new Set();
  const walk = (node) => {
    if (!node || typeof node !== "object" || seen.has(node)) return null;
    seen.add(node);
    if (node.properties && node.properties[SECTION] && node.properties[SECTION].properties) {
      return node.properties[SECTION];
    }
    for (const value of Object.values(node)) {
      const found = walk(value);
      if (found) return found;
    }
    return null;
  };
  return walk(schema) || { properties: {} };
}

/** A key's schema without anyOf/oneOf wrappers (a nullable or shorthand key). */
function scalar(spec) {
  if (!spec) return {};
  const variants = spec.anyOf || spec.oneOf;
  if (!spec.type && !spec.enum && Array.isArray(variants)) {
    return { ...(variants.find((v) => v.type && v.type !== "null") || {}), description: spec.description,
      default: spec.default };
  }
  return spec;
}

/**
 * Opens the Edit dialog for one connection; resolves with the PUT's answer once applied, or null
 * when cancelled. Reads the configuration and the schema first (the revision to write on); {@code inForce}
 * is the overflow policy the channel reports, shown beside the "kind's default" choice; {@code held} is the
 * channel's last status, whose backlog a lower max_bytes is compared with.
 */
export async function editChannelSettings(connection, inForce, held) {
  const [read, schema] = await Promise.all([readChannelSettings(), api.get("/api/v1/config/schema")]);
  const found = read.channels.get(connection);
  if (!found) throw new Error(`The configuration has no outbound connection '${connection}'.`);
  const entry = { ...found, inForce };
  const section = sectionSchema(schema);
  const keys = [...ORDER.filter((k) => section.properties[k]),
    ...Object.keys(section.properties).filter((k) => !ORDER.includes(k))];
  const sectionKey = `outbound.${/^[A-Za-z0-9_-]+$/.test(connection) ? connection : JSON.stringify(connection)}.${SECTION}`;
  const prefix = sectionKey + ".";
  const inputs = new Map(); // key -> { input, problem, spec }
  // GET /api/v1/config shows what runs: while the file holds a change waiting for a restart, these
  // values are not the file's, and sending them back would undo that change
  const pending = read.pendingRestart.includes("outbound:" + connection);
  let conflict = null;
  let shrink = null; // the question asked when max_bytes goes below the backlog

  function build(fields) {
    fields.closest("form").noValidate = true; // the fields show their own problems, and Apply says why it waits
    clear(fields, h("p", { class: "hint" }, `Connection ${connection} (${entry.kind}). `
        + "Changes apply to the running channel; a new segment_bytes applies to the segments written from now on."),
    pending ? h("p", { class: "alarm-banner", "data-test": "settings-pending" }, "This connection's section in the file "
        + "holds a change that waits for a restart: the values below are the running ones, and applying them would "
        + "undo that change. Restart the gateway, then edit.") : null);
    for (const key of keys) {
      const spec = scalar(section.properties[key]);
      const id = "cs-" + key;
      const current = entry.settings[key];
      const unit = UNIT_TEXT[spec["x-unit"]] || spec["x-unit"] || "";
      let input;
      if (spec.type === "boolean") {
        input = h("input", { type: "checkbox", id, name: key, "data-key": key });
        input.checked = current === undefined ? Boolean(spec.default) : Boolean(current);
      } else if (spec.enum) {
        // overflow_policy may be left out: the kind's default, offered as the empty choice
        input = h("select", { id, name: key, "data-key": key },
            key === "overflow_policy" ? h("option", { value: "" }, policyText({ kind: entry.kind, settings: {} }, entry.inForce)) : null,
            spec.enum.map((v) => h("option", { value: v }, v)));
        input.value = current === undefined ? (key === "overflow_policy" ? "" : spec.default || "") : current;
      } else {
        input = h("input", { type: "number", id, name: key, "data-key": key, required: true,
          step: spec.type === "integer" ? 1 : "any", min: spec.minimum, max: spec.maximum,
          "aria-describedby": id + "-problem" });
        input.value = current === undefined ? (spec.default ?? "") : current;
      }
      const problem = h("span", { class: "field-problem", id: id + "-problem", "data-test": "field-problem",
        "data-key": key, role: "alert" });
      const range = spec.minimum !== undefined || spec.maximum !== undefined
        ? ` ${spec.minimum ?? "…"} to ${spec.maximum ?? "…"}` : "";
      fields.append(h("div", { class: "field setting", "data-test": "setting", "data-key": key },
          h("label", { for: id }, h("span", {}, key), unit ? h("span", { class: "unit" }, ` (${unit})`) : null),
          spec.type === "boolean" ? h("div", {}, input) : input,
          h("span", { class: "hint" }, (spec.description || "") + range),
          problem));
      inputs.set(key, { input, problem, spec });
      input.addEventListener("input", validate);
      input.addEventListener("change", validate);
    }
    fields.append(h("label", { class: "field" }, h("span", {}, "Comment"),
        h("input", { type: "text", id: "cs-comment", name: "comment", maxlength: 500,
          placeholder: "why (kept with the revision)" })));
    conflict = h("div", { id: "cs-conflict", "data-test": "settings-conflict" });
    const option = (choice, label) => h("label", { class: "choice" },
        h("input", { type: "radio", name: "cs-on-shrink", value: choice, "data-test": "cs-on-shrink-" + choice }),
        " ", label);
    const legend = h("legend", {});
    shrink = { legend, element: h("fieldset", { "data-test": "cs-shrink-question" }, legend,
        option("keep", "Keep them until they drain (new items meet the limit as the overflow policy says)"),
        option("drop_oldest", "Drop the oldest now, down to the new limit (recorded as lost in the loss ledger)")) };
    shrink.element.hidden = true;
    fields.append(shrink.element, conflict);
    inputs.get("max_bytes")?.input.addEventListener("input", askAboutTheBacklog);
    askAboutTheBacklog();
  }

  /** Shows the question while the new max_bytes is below what the channel holds (its last status). */
  function askAboutTheBacklog() {
    const limit = Number(inputs.get("max_bytes")?.input.value);
    const below = held && Number.isFinite(limit) && limit < held.bufferedBytes && limit < held.maxBytes;
    showShrink(below ? held.bufferedItems : null, below ? held.bufferedBytes : null);
  }

  function showShrink(items, bytes) {
    shrink.element.hidden = items === null;
    shrink.legend.textContent = items === null ? "" : `The new limit is below the backlog: `
        + `${Number(items).toLocaleString("en")} items (${Number(bytes).toLocaleString("en")} bytes) wait to be `
        + "delivered. What happens to them?";
  }

  function value() {
    const result = {};
    for (const [key, { input, spec }] of inputs) {
      if (spec.type === "boolean") result[key] = input.checked;
      else if (spec.enum) { if (input.value !== "") result[key] = input.value; }
      else if (input.value !== "") result[key] = Number(input.value);
    }
    return result;
  }

  /** Marks each field against its range and the water marks against each other; true when all are fine. */
  function validate() {
    let fine = true;
    for (const [key, { input, problem, spec }] of inputs) {
      let text = "";
      if (input.type === "number") {
        const n = Number(input.value);
        if (input.value === "" || !Number.isFinite(n)) text = "a number is required";
        else if (spec.type === "integer" && !Number.isInteger(n)) text = "a whole number is required";
        else if (spec.minimum !== undefined && n < spec.minimum) text = `at least ${spec.minimum}`;
        else if (spec.maximum !== undefined && n > spec.maximum) text = `at most ${spec.maximum}`;
      }
      show(key, problem, input, text);
      if (text) fine = false;
    }
    const high = inputs.get("high_water_percent");
    const low = inputs.get("low_water_percent");
    if (high && low && !low.problem.textContent && !high.problem.textContent
        && Number(low.input.value) >= Number(high.input.value)) {
      show("low_water_percent", low.problem, low.input, "must be below high_water_percent");
      fine = false;
    }
    return fine;
  }

  function show(key, problem, input, text) {
    problem.textContent = text ? `${prefix}${key}: ${text}` : "";
    input.setAttribute("aria-invalid", text ? "true" : "false");
    input.setCustomValidity(text);
  }

  async function onSubmit(form, message) {
    const chosen = shrink.element.hidden ? null : form.querySelector("input[name=cs-on-shrink]:checked");
    conflict.replaceChildren();
    if (!validate()) throw new Error("Fix the marked fields; nothing was sent.");
    if (pending) throw new Error("Waits for a restart first; nothing was sent.");
    if (!shrink.element.hidden && !chosen) {
      throw new Error("Choose what happens to the backlog; nothing was sent.");
    }
    try {
      return await api.put("/api/v1/config/" + encodeURIComponent(sectionKey), {
        revision: read.fileRevision, value: value(), comment: form.querySelector("#cs-comment").value || undefined,
        source: "console", onShrink: chosen ? chosen.value : undefined,
      });
    } catch (e) {
      throw explain(e, message);
    }
  }

  /** Puts a refusal's details into the dialog; returns the error whose message the dialog shows. */
  function explain(e, message) {
    const body = e.body || {};
    if (e.status === 422 && Array.isArray(body.problems)) {
      const elsewhere = [];
      for (const p of body.problems) {
        const key = String(p.key || "").startsWith(prefix) ? p.key.slice(prefix.length) : null;
        const target = key && inputs.get(key);
        if (target) {
          target.problem.textContent = `${p.key}: ${p.message}`;
          target.input.setAttribute("aria-invalid", "true");
        } else {
          elsewhere.push(`${p.key}: ${p.message}`);
        }
      }
      return new Error(["Not saved: the gateway refused it (nothing changed).", ...elsewhere].join(" "));
    }
    if (e.status === 409 && body.field === "onShrink") { // the backlog grew past the new limit meanwhile
      const b = (body.backlogs || [])[0] || {};
      showShrink(b.bufferedItems, b.bufferedBytes);
      return new Error("Choose what happens to the backlog, then Apply again: nothing was saved.");
    }
    if (e.status === 409) {
      conflict.append(h("p", {}, "The configuration changed meanwhile (nothing was saved). Close and Edit again "
          + "to start from the current values. Lines changed since:"),
      h("pre", { class: "diff", "data-test": "settings-diff" }, body.diff || "(not kept)"));
      return new Error("Changed meanwhile, reload: nothing was saved.");
    }
    return e;
  }

  return formDialog({ id: "channel-settings", title: `Store & forward settings of ${connection}`,
    submitLabel: "Apply", build, onSubmit }).then((answer) => answer && { ...answer, connection });
}

/** One sentence for the page: "Applied live (outbound:db)." / "Saved; waits for a restart: outbound:db." */
export function outcomeText(answer) {
  const changed = (answer.diff || []).length;
  if (changed === 0) return "No change: the values were already these.";
  const parts = [];
  if ((answer.applied || []).length) parts.push(`Applied live (${answer.applied.join(", ")}).`);
  if ((answer.needRestart || []).length) parts.push(`Saved; waits for a restart: ${answer.needRestart.join(", ")}.`);
  if (parts.length === 0) parts.push("Saved.");
  return parts.join(" ") + ` ${changed} ${changed === 1 ? "key" : "keys"} changed: `
      + answer.diff.map((d) => `${d.key.split(".").pop()} ${d.from ?? "(default)"} → ${d.to ?? "(default)"}`).join(", ");
}
