// The quarantine of one channel: items the destination rejected (or whose outcome stayed unknown),
// newest first. Rows expand to show the error and a preview of the item. With "Edit connections"
// the selected items (or all of them) can be retried back into the channel or dropped for good;
// dropping asks first. The answer for each item shows at once and the list reloads.
import { api, pathParam } from "../api.js";
import { h, clear, loading, empty, failure, table, say } from "../dom.js";
import { confirmDialog } from "../dialogs.js";
import * as f from "../format.js";

const PAGE_SIZE = 50;

export async function render(root, { connection }, ctx) {
  const canEdit = ctx.can("edit_connections");
  const base = `/api/v1/store-forward/${pathParam(connection)}/quarantine`;
  const state = { offset: 0, failureClass: "", page: null, selected: new Set(), all: false };

  const classFilter = h("select", { id: "q-class" },
      h("option", { value: "" }, "all"), h("option", { value: "permanent" }, "permanent"),
      h("option", { value: "unknown_outcome" }, "outcome unknown"));
  const selectAll = h("input", { type: "checkbox", id: "q-select-all", "data-test": "q-select-all" });
  const retry = h("button", { type: "button", id: "q-retry", "data-test": "q-retry", disabled: true }, "Retry");
  const drop = h("button", { type: "button", id: "q-drop", "data-test": "q-drop", class: "danger", disabled: true }, "Drop");
  const selection = h("span", { id: "q-selection", class: "hint", "aria-live": "polite" });
  const result = h("div", { id: "q-result", role: "status", "aria-live": "polite" });
  const holder = h("div", { id: "q-list" }, loading());
  const pager = h("div", { class: "pager" });

  clear(root,
      h("p", { class: "crumb" }, h("a", { href: "#/store-forward" }, "Settings → Store & Forward"), " → ", connection),
      h("h2", {}, "Quarantine of ", h("span", { id: "q-connection" }, connection)),
      h("div", { class: "toolbar" },
          h("label", { class: "inline", for: "q-class" }, "Class ", classFilter),
          h("label", { class: "inline", for: "q-select-all" }, selectAll, " Select all"),
          selection, h("span", { class: "spacer" }), retry, drop),
      canEdit ? null : h("p", { class: "hint", id: "q-readonly", "data-test": "q-readonly" },
          "Retry and Drop need the Edit connections permission, which your roles do not grant."),
      result, holder, pager);

  function chosen() {
    return state.all ? { all: true } : { ids: [...state.selected] };
  }

  function refreshControls() {
    const n = state.all ? state.page.total : state.selected.size;
    const entries = state.page ? state.page.entries : [];
    selectAll.checked = entries.length > 0 && (state.all || entries.every((e) => state.selected.has(e.id)));
    selectAll.indeterminate = !selectAll.checked && state.selected.size > 0;
    selectAll.disabled = entries.length === 0;
    retry.disabled = !canEdit || n === 0;
    drop.disabled = !canEdit || n === 0;
    clear(selection, n === 0 ? "" : `${n} selected`,
        !state.all && selectAll.checked && state.page.total > entries.length
            ? h("button", { type: "button", class: "link", id: "q-select-every", onclick: () => {
              state.all = true;
              refreshControls();
            } }, ` Select all ${state.page.total} in the quarantine`) : null);
  }

  async function load() {
    try {
      const query = `?offset=${state.offset}&limit=${PAGE_SIZE}` + (state.failureClass ? `&class=${state.failureClass}` : "");
      state.page = await api.get(base + query);
    } catch (e) {
      clear(holder, failure(e, load));
      clear(pager);
      return;
    }
    const ids = new Set(state.page.entries.map((e) => e.id));
    for (const id of [...state.selected]) if (!ids.has(id)) state.selected.delete(id);
    state.all = false;
    showList();
    refreshControls();
  }

  function showList() {
    const { entries, total } = state.page;
    if (entries.length === 0) {
      clear(holder, empty(state.offset > 0 ? "No entries on this page." : "The quarantine is empty: nothing waits for an operator."));
    } else {
      const { element, body } = table(["", "Id", "Class", "Reason", "Attempts", "First failure", "Last failure", "Size", ""],
          { class: "quarantine", "data-test": "q-table" });
      for (const entry of entries) body.append(...rows(entry));
      clear(holder, element);
    }
    const last = Math.min(state.offset + entries.length, total);
    clear(pager,
        h("span", { id: "q-total" }, total === 0 ? "0 entries" : `${state.offset + 1}–${last} of ${total}`),
        h("button", { type: "button", disabled: state.offset === 0, onclick: () => {
          state.offset = Math.max(0, state.offset - PAGE_SIZE);
          load();
        } }, "Newer"),
        h("button", { type: "button", disabled: last >= total, onclick: () => {
          state.offset += PAGE_SIZE;
          load();
        } }, "Older"));
  }

  function rows(entry) {
    const box = h("input", { type: "checkbox", id: "q-check-" + entry.id, "data-test": "q-check",
      "aria-label": "Select item " + entry.id, checked: state.all || state.selected.has(entry.id) });
    box.addEventListener("change", () => {
      if (box.checked) state.selected.add(entry.id);
      else state.selected.delete(entry.id);
      state.all = false;
      refreshControls();
    });
    const detail = h("tr", { class: "detail", hidden: true, id: "q-detail-" + entry.id },
        h("td", { colspan: 9 }));
    const toggle = h("button", { type: "button", class: "link", id: "q-expand-" + entry.id, "data-test": "q-expand",
      "aria-expanded": "false", "aria-controls": "q-detail-" + entry.id }, "Details");
    toggle.addEventListener("click", () => expand(entry, toggle, detail));
    const main = h("tr", { "data-test": "q-row", "data-id": entry.id, id: "q-row-" + entry.id },
        h("td", {}, box),
        h("td", {}, entry.id),
        h("td", {}, h("span", { class: "pill " + String(entry.failureClass).toLowerCase() },
            entry.failureClass === "UNKNOWN_OUTCOME" ? "outcome unknown" : String(entry.failureClass).toLowerCase())),
        h("td", { class: "reason" }, h("div", { class: "clamp", title: entry.reason }, entry.reason)),
        h("td", {}, entry.attempts),
        h("td", {}, f.time(entry.firstFailure)),
        h("td", {}, f.time(entry.lastFailure)),
        h("td", { class: "size" }, f.bytes(entry.itemBytes)),
        h("td", {}, toggle));
    return [main, detail];
  }

  async function expand(entry, toggle, detail) {
    const open = toggle.getAttribute("aria-expanded") === "true";
    toggle.setAttribute("aria-expanded", String(!open));
    detail.hidden = open;
    if (open) return;
    const cell = detail.firstChild;
    clear(cell, loading("Loading the item…"));
    try {
      const found = await api.get(`${base}/${entry.id}`);
      const item = found.entry || entry;
      clear(cell, h("dl", { class: "facts-list" },
          h("dt", {}, "Error"), h("dd", { class: "error-text" }, item.error || "–"),
          h("dt", {}, "Reason"), h("dd", {}, item.reason),
          ...((item.previousIds || []).length ? [h("dt", {}, "Earlier ids"),
            h("dd", { "data-test": "q-previous-ids" }, `${item.previousIds.join(", ")} (retried and failed again;`
                + ` attempts count from the first failure)`)] : []),
          h("dt", {}, "Size"), h("dd", {}, f.bytes(found.itemBytes ?? item.itemBytes)),
          h("dt", {}, "Item"), h("dd", {}, h("pre", { class: "preview", "data-test": "q-preview" }, found.preview ?? "–"))));
    } catch (e) {
      clear(cell, failure(e));
    }
  }

  async function act(action) {
    const body = chosen();
    const n = body.all ? state.page.total : body.ids.length;
    if (action === "drop") {
      const ok = await confirmDialog({
        title: "Drop quarantined items?",
        message: `Drop ${n} item${n === 1 ? "" : "s"} from the quarantine of ${connection} for good? `
            + "They will not be delivered and cannot be recovered.",
        confirmLabel: `Drop ${n}`,
        danger: true,
      });
      if (!ok) return;
    }
    retry.disabled = drop.disabled = true;
    say(result, action === "retry" ? "Retrying…" : "Dropping…");
    try {
      const answer = await api.post(`${base}/${action}`, body);
      showResult(answer);
      state.selected.clear();
    } catch (e) {
      clear(result, failure(e));
    }
    await load();
  }

  // Green only when every item was delivered or is queued; an item that failed again at once is not "retried".
  function showResult(answer) {
    const failed = (answer.results || []).filter((r) => !r.ok);
    const headline = answer.action === "drop"
      ? `Dropped ${answer.succeeded} of ${answer.requested}.`
      : `Retried ${answer.requested}: ${retrySummary(answer.outcomes || {})}.`;
    clear(result, h("div", { class: "result " + (failed.length ? "partial" : "ok"), "data-test": "q-result-message" },
        h("strong", {}, headline),
        failed.length ? h("ul", {}, failed.map((r) => h("li", { "data-test": "q-result-item", "data-outcome": r.outcome },
            `Item ${r.id}: ${r.message}`))) : null));
  }

  function retrySummary(outcomes) {
    const parts = [];
    if (outcomes.delivered) parts.push(`${outcomes.delivered} delivered`);
    if (outcomes.queued) parts.push(`${outcomes.queued} queued behind the backlog`);
    if (outcomes.failed_again) parts.push(`${outcomes.failed_again} failed again at once`);
    if (outcomes.not_retried) parts.push(`${outcomes.not_retried} not retried`);
    return parts.length ? parts.join(", ") : "nothing to retry";
  }

  classFilter.addEventListener("change", () => {
    state.failureClass = classFilter.value;
    state.offset = 0;
    state.selected.clear();
    load();
  });
  selectAll.addEventListener("change", () => {
    state.all = false;
    for (const entry of state.page.entries) {
      if (selectAll.checked) state.selected.add(entry.id);
      else state.selected.delete(entry.id);
    }
    for (const box of holder.querySelectorAll("input[data-test=q-check]")) box.checked = selectAll.checked;
    refreshControls();
  });
  retry.addEventListener("click", () => act("retry"));
  drop.addEventListener("click", () => act("drop"));

  await load();
  return undefined;
}
