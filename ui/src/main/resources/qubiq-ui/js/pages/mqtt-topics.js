// The topics of an MQTT connection as rows in the connection form (connection-form.js): topic filter,
// tag or tag template, QoS, payload format, data type and value path, with the schema's choices and
// defaults. Keys a row does not show are kept as they were; problems come back by list index.
import { h } from "../dom.js";
import { plain } from "./schema-keys.js";

const SUBSCRIPTION_KEYS = ["topic", "tag", "qos", "payload", "data_type", "value_path"];

/** The MQTT subscriptions as rows (topic, tag, qos, payload, data type, value path); problems by index. */
export function subscriptionEditor(initial, section) {
  const itemSpec = (section.properties.subscriptions && section.properties.subscriptions.items) || { properties: {} };
  const body = h("tbody");
  const rows = [];
  const element = h("fieldset", { class: "subscriptions", id: "cf-subscriptions" },
      h("legend", {}, "Topics as tags"),
      h("p", { class: "hint" }, "Each topic filter's messages become values of the tag; with wildcards the tag is a"
          + " template where {1}, {2}, … stand for the levels the wildcards matched."),
      h("table", {}, h("thead", {}, h("tr", {}, ["Topic filter", "Tag", "QoS", "Payload", "Type", "Value path", ""]
          .map((t) => h("th", { scope: "col" }, t)))), body),
      h("button", { type: "button", id: "cf-add-subscription", onclick: () => add({}) }, "Add topic"));

  function add(subscription) {
    const cells = {};
    const problem = h("td", { class: "field-problem", colspan: 7, role: "alert" });
    for (const key of SUBSCRIPTION_KEYS) {
      const spec = plain(itemSpec.properties[key]);
      const value = subscription[key] ?? (spec.default === undefined ? "" : spec.default);
      cells[key] = spec.enum
        ? h("select", { "data-sub": key, "aria-label": key }, spec.enum.map((v) => h("option", { value: v }, v)))
        : h("input", { type: key === "qos" ? "number" : "text", min: spec.minimum, max: spec.maximum,
          "data-sub": key, "aria-label": key });
      cells[key].value = value;
    }
    const row = { cells, original: subscription, problem };
    const tr = h("tr", { "data-test": "subscription-row" }, SUBSCRIPTION_KEYS.map((k) => h("td", {}, cells[k])),
        h("td", {}, h("button", { type: "button", class: "danger", onclick: () => {
          rows.splice(rows.indexOf(row), 1);
          tr.remove();
          problemRow.remove();
        } }, "Remove")));
    const problemRow = h("tr", {}, problem);
    rows.push(row);
    body.append(tr, problemRow);
  }

  initial.forEach(add);
  return {
    element,
    value: () => rows.map(({ cells, original }) => {
      const out = { ...original };
      for (const key of SUBSCRIPTION_KEYS) {
        const raw = cells[key].value.trim();
        if (raw === "") delete out[key];
        else out[key] = key === "qos" ? Number(raw) : raw;
      }
      return out;
    }),
    show: (key, message) => {
      const found = /^mqtt\.subscriptions\[(\d+)\]/.exec(key);
      if (!found || !rows[Number(found[1])]) return false;
      rows[Number(found[1])].problem.textContent = key.slice(found[0].length).replace(/^\./, "") + " " + message;
      return true;
    },
    clearProblems: () => rows.forEach((r) => { r.problem.textContent = ""; }),
  };
}
