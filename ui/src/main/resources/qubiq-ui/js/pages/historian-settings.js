// Settings → Historian: the historian's storage rules and retention, as the configuration holds them. With
// Edit connections, a rule is added, edited, moved or removed and the default rule edited in a dialog; each
// change is one PUT of historian.rules or historian.default_rule on the file revision the page read, applied
// to the running historian at once (each tag judged by its new rule from its next value on). Retention
// (ttl_days, partition_by) is edited the same way and waits for a restart of the gateway, which the answer
// says. A 422 shows every problem in the dialog, a 409 (the file changed meanwhile) asks to reload the page.
import { api } from "../api.js";
import { h, clear, loading, empty, failure } from "../dom.js";
import { formDialog, confirmDialog } from "../dialogs.js";

const MODES = ["on_change", "always"];
const PARTITIONS = ["hour", "day", "week", "month", "year"];

export async function render(root, _params, ctx) {
  const canEdit = ctx.can("edit_connections");
  const outcome = h("div", { id: "historian-outcome", "data-test": "historian-outcome", role: "status" });
  const body = h("div", {}, loading());
  clear(root, h("h2", {}, "Historian"), outcome, body);

  let state;
  async function refresh() {
    try {
      const answer = await api.get("/api/v1/config");
      state = { revision: answer.fileRevision, historian: (answer.config || {}).historian,
        pending: (answer.pendingRestart || []).includes("historian") };
    } catch (e) {
      clear(body, failure(e, refresh));
      return;
    }
    show();
  }

  function show() {
    const historian = state.historian;
    if (!historian) {
      clear(body, empty("The historian is off: add a historian section to the configuration file to store tag "
          + "values in QuestDB."));
      return;
    }
    const rules = historian.rules || [];
    const rows = rules.map((rule, index) => ruleRow(rule, index, rules.length));
    rows.push(ruleRow(historian.default_rule || {}, -1, rules.length));
    clear(body,
        state.pending ? h("p", { class: "alarm-banner", "data-test": "historian-pending" }, "The file holds a historian "
            + "change that waits for a restart of the gateway: the values below are the running ones.") : null,
        h("section", { class: "card" },
            h("h3", {}, "Storage rules"),
            h("p", { class: "hint" }, "Each tag follows the first rule whose pattern matches it, else the default rule. "
                + "A change applies at once: each tag is judged by its new rule from its next value on."),
            h("table", { id: "historian-rules" },
                h("thead", {}, h("tr", {}, ["#", "Tags", "Mode", "Deadband", "Min interval", "Heartbeat", ""]
                    .map((t) => h("th", {}, t)))),
                h("tbody", {}, rows)),
            canEdit ? h("div", { class: "buttons" }, h("button", { type: "button", id: "historian-add-rule",
              onclick: () => editRule(-2, { tags: "", mode: "on_change", min_interval_ms: 0 }) }, "Add rule…")) : null),
        h("section", { class: "card" },
            h("h3", {}, "Retention"),
            h("p", { id: "historian-retention" }, `Tables partitioned by ${historian.partition_by}; partitions older `
                + `than ${historian.ttl_days} days are dropped` + (historian.ttl_days === 0 ? " (0: kept)." : ".")),
            h("p", { class: "hint" }, "A change of retention waits for a restart of the gateway."),
            canEdit ? h("div", { class: "buttons" }, h("button", { type: "button", id: "historian-edit-retention",
              onclick: editRetention }, "Edit retention…")) : null));
  }

  function ruleRow(rule, index, count) {
    const isDefault = index === -1;
    const deadband = rule.deadband_absolute !== undefined && rule.deadband_absolute !== null ? `± ${rule.deadband_absolute}`
      : rule.deadband_percent !== undefined && rule.deadband_percent !== null ? `± ${rule.deadband_percent} %` : "none";
    const actions = !canEdit ? null : h("div", { class: "buttons" },
        h("button", { type: "button", "data-test": "rule-edit", onclick: () => editRule(index, rule) }, "Edit…"),
        isDefault ? null : [
          h("button", { type: "button", "data-test": "rule-up", disabled: index === 0, title: "Move up",
            onclick: () => move(index, -1) }, "↑"),
          h("button", { type: "button", "data-test": "rule-down", disabled: index === count - 1, title: "Move down",
            onclick: () => move(index, 1) }, "↓"),
          h("button", { type: "button", class: "danger", "data-test": "rule-remove", onclick: () => remove(index) },
              "Remove…")]);
    return h("tr", { "data-rule": isDefault ? "default" : String(index) },
        h("td", {}, isDefault ? "default" : String(index + 1)),
        h("td", {}, isDefault ? "every other tag" : h("code", {}, rule.tags)),
        h("td", {}, rule.mode || "on_change"),
        h("td", {}, deadband),
        h("td", {}, rule.min_interval_ms ? `${rule.min_interval_ms} ms` : "none"),
        h("td", {}, rule.max_interval_ms ? `${rule.max_interval_ms} ms` : "none"),
        h("td", {}, actions));
  }

  /** One PUT on the revision the page read; the answer is shown, the page read again. */
  async function put(key, value, what) {
    const answer = await api.put(`/api/v1/config/${key}`, { revision: state.revision, value, source: "console",
      comment: what });
    const live = answer.applied.length ? `applied live: ${answer.applied.join(", ")}` : "";
    const waits = answer.needRestart.length ? `waits for a restart: ${answer.needRestart.join(", ")}` : "";
    clear(outcome, h("p", { class: "status-line ok", "data-test": "historian-written" },
        `${what}: ${[live, waits].filter(Boolean).join("; ") || "nothing changed"}.`));
    await refresh();
  }

  function explain(e) {
    if (e.status === 409) {
      return new Error("The configuration file changed since this page read it: reload the page and make the change "
          + "again.");
    }
    const problems = e.body && Array.isArray(e.body.problems) ? e.body.problems : [];
    return problems.length ? new Error(problems.map((p) => `${p.key}: ${p.message}`).join("; ")) : e;
  }

  async function editRule(index, rule) {
    const isDefault = index === -1;
    const adding = index === -2;
    const deadbandKind = rule.deadband_absolute != null ? "absolute" : rule.deadband_percent != null ? "percent" : "none";
    await formDialog({
      id: "historian-rule",
      title: isDefault ? "Default rule" : adding ? "New storage rule" : `Storage rule ${index + 1}`,
      submitLabel: "Apply",
      build(fields) {
        fields.append(
            isDefault ? null : labelled("Tags (pattern)", h("input", { id: "rule-tags", required: true,
              placeholder: "plant1/*/temperature or plant1/**", value: rule.tags || "" })),
            labelled("Mode", select("rule-mode", MODES, rule.mode || "on_change")),
            labelled("Deadband", select("rule-deadband-kind", ["none", "absolute", "percent"], deadbandKind)),
            labelled("Deadband value", h("input", { id: "rule-deadband", type: "number", step: "any", min: 0,
              value: rule.deadband_absolute ?? rule.deadband_percent ?? "" })),
            labelled("Min interval (ms)", h("input", { id: "rule-min", type: "number", min: 0, max: 86400000, step: 1,
              value: rule.min_interval_ms ?? 0 })),
            labelled("Heartbeat (ms, empty: none)", h("input", { id: "rule-max", type: "number", min: 100,
              max: 604800000, step: 1, value: rule.max_interval_ms ?? "" })));
      },
      async onSubmit(form) {
        const next = {};
        if (!isDefault) next.tags = form.querySelector("#rule-tags").value.trim();
        next.mode = form.querySelector("#rule-mode").value;
        const kind = form.querySelector("#rule-deadband-kind").value;
        const deadband = form.querySelector("#rule-deadband").value;
        if (kind !== "none") {
          if (deadband === "") throw new Error("Give the deadband a value, or choose none.");
          next[kind === "absolute" ? "deadband_absolute" : "deadband_percent"] = Number(deadband);
        }
        next.min_interval_ms = Number(form.querySelector("#rule-min").value || 0);
        const max = form.querySelector("#rule-max").value;
        if (max !== "") next.max_interval_ms = Number(max);
        try {
          if (isDefault) {
            next.tags = "**";
            return await put("historian.default_rule", next, "Default storage rule changed");
          }
          const rules = [...(state.historian.rules || [])];
          if (adding) rules.push(next); else rules[index] = next;
          return await put("historian.rules", rules, adding ? `Storage rule for ${next.tags} added`
            : `Storage rule ${index + 1} changed`);
        } catch (e) {
          throw explain(e);
        }
      },
    });
  }

  async function move(index, by) {
    const rules = [...state.historian.rules];
    const [rule] = rules.splice(index, 1);
    rules.splice(index + by, 0, rule);
    try {
      await put("historian.rules", rules, `Storage rule ${index + 1} moved ${by < 0 ? "up" : "down"}`);
    } catch (e) {
      clear(outcome, failure(explain(e)));
    }
  }

  async function remove(index) {
    const rule = state.historian.rules[index];
    const ok = await confirmDialog({ title: "Remove storage rule", message: `Remove the rule for ${rule.tags}? Its `
        + "tags then follow the next matching rule, or the default.", confirmLabel: "Remove", danger: true });
    if (!ok) return;
    const rules = state.historian.rules.filter((_, i) => i !== index);
    try {
      await put("historian.rules", rules, `Storage rule for ${rule.tags} removed`);
    } catch (e) {
      clear(outcome, failure(explain(e)));
    }
  }

  async function editRetention() {
    await formDialog({
      id: "historian-retention-dialog",
      title: "Retention",
      submitLabel: "Apply",
      build(fields) {
        fields.append(
            labelled("Partition by", select("retention-partition", PARTITIONS, state.historian.partition_by)),
            labelled("Keep (days, 0: until deleted)", h("input", { id: "retention-days", type: "number", min: 0,
              max: 36500, step: 1, required: true, value: state.historian.ttl_days })));
      },
      async onSubmit(form) {
        try {
          await put("historian.ttl_days", Number(form.querySelector("#retention-days").value), "Retention changed");
          const partition = form.querySelector("#retention-partition").value;
          if (partition !== state.historian.partition_by) {
            await put("historian.partition_by", partition, "Partitioning changed");
          }
          return true;
        } catch (e) {
          throw explain(e);
        }
      },
    });
  }

  await refresh();
  return undefined;
}

function labelled(text, input) {
  return h("label", { class: "field" }, h("span", {}, text), input);
}

function select(id, values, current) {
  const element = h("select", { id }, values.map((v) => h("option", { value: v }, v)));
  element.value = current;
  return element;
}
