// The Connections page's "Historian tables (WAL)" section (View history): what the WAL supervisor
// knows of each history table, refreshed every few seconds. A suspended table can be resumed from
// the next transaction (Edit connections) after a confirmation that says the skipped transaction's
// rows are lost. A gateway without a historian answers 404: that is said, not shown as an error; when
// the caller already knows there is none (no historian channel), nothing is asked at all.
import { api, pathParam } from "../api.js";
import { h, clear, loading, empty, failure, table, say, statusLine, keepingFocus } from "../dom.js";
import { confirmDialog } from "../dialogs.js";
import * as f from "../format.js";

const REFRESH_MS = 5000;

/**
 * The section and the function that stops its updates. {@code historian} resolves to whether the gateway has
 * a historian (its channel is listed), so a gateway without one is not asked.
 */
export function walSection(ctx, historian = Promise.resolve(true)) {
  const holder = h("div", { id: "wal" }, loading());
  const message = statusLine("wal-message");
  const section = h("section", { id: "wal-section", "aria-labelledby": "wal-title" },
      h("h3", { id: "wal-title" }, "Historian tables (WAL)"), message, holder);
  const canEdit = ctx.can("edit_connections");
  let timer = null;
  let stopped = false;
  let loaded = false;

  async function refresh(retrying = false) {
    clearTimeout(timer);
    try {
      // the first read is the user's; the refreshes that follow are not use of the session
      const tables = await api.get("/api/v1/historian/wal", { background: loaded });
      if (stopped) return;
      loaded = true;
      keepingFocus(() => renderTables(holder, tables, canEdit, skip));
    } catch (e) {
      if (stopped) return;
      if (e.status === 404) {
        clear(holder, empty("No historian is configured, so there are no history tables."));
        return; // nothing will appear without a restart: no more polling
      }
      if (retrying || !loaded) clear(holder, failure(e, () => refresh(true)));
    }
    timer = setTimeout(refresh, REFRESH_MS);
  }

  async function skip(status) {
    const ok = await confirmDialog({
      title: `Resume ${status.table} from the next transaction?`,
      message: `QuestDB cannot apply transaction ${status.writerTxn + 1} of ${status.table}`
          + (status.errorMessage ? ` (${status.errorMessage})` : "")
          + ". Resuming skips that transaction: the rows it holds are lost for good and will not reach"
          + " the history. Later transactions are applied as usual.",
      confirmLabel: "Skip it and resume",
      danger: true,
    });
    if (!ok) {
      const button = document.getElementById("wal-skip-" + status.table);
      if (button) button.focus();
      return;
    }
    try {
      const answer = await api.post(`/api/v1/historian/wal/${pathParam(status.table)}/skip`);
      say(message, answer && answer.suspended
          ? `${status.table} is still suspended: ${answer.errorMessage || "see its cause"}.`
          : `${status.table} resumed from the next transaction.`, answer && answer.suspended ? "error" : "ok");
    } catch (e) {
      say(message, `Could not resume ${status.table}: ${e.message}`, "error");
    }
    refresh();
  }

  historian.then((present) => {
    if (present) refresh();
    else clear(holder, empty("No historian is configured, so there are no history tables."));
  }, () => refresh());
  const stop = () => {
    stopped = true;
    clearTimeout(timer);
  };
  return { element: section, stop };
}

function renderTables(holder, tables, canEdit, skip) {
  if (tables.length === 0) {
    clear(holder, empty("The historian writes no tables yet."));
    return;
  }
  const { element, body } = table(["Table", "State", "Cause", "Transactions (writer / sequencer)", "Resumes", "Error", ""],
      { "data-test": "wal-table" });
  for (const t of tables) {
    const trouble = t.suspended || t.poisoned || t.lagging;
    body.append(h("tr", { "data-test": "wal-row", "data-table": t.table, "data-suspended": String(t.suspended),
      class: t.poisoned ? "alarm" : null },
        h("th", { scope: "row" }, t.table),
        h("td", { class: trouble ? "warn" : null }, stateText(t)),
        h("td", {}, t.cause ? String(t.cause).toLowerCase().replaceAll("_", " ") : "–"),
        h("td", {}, f.count(t.writerTxn), " / ", f.count(t.sequencerTxn),
            t.sequencerTxn > t.writerTxn ? h("div", { class: "sub" }, f.count(t.sequencerTxn - t.writerTxn), " behind") : null),
        h("td", {}, f.count(t.autoResumes), h("div", { class: "sub" }, f.count(t.autoResumesTotal), " in all")),
        h("td", { class: "error-text" }, h("div", { class: "clamp", title: t.errorMessage || null },
            [t.errorTag, t.errorMessage].filter(Boolean).join(": ") || "–")),
        h("td", { class: "actions" }, t.suspended ? h("button", {
          type: "button", id: "wal-skip-" + t.table, "data-test": "wal-skip", class: "danger",
          disabled: !canEdit, title: canEdit ? null : "Needs the Edit connections permission",
          onclick: () => skip(t),
        }, "Resume from next transaction") : null)));
  }
  clear(holder, element);
}

/** The table's state in words, with a symbol, so colour is not the only cue. */
function stateText(t) {
  if (!t.present) return "? not listed by QuestDB";
  const words = [];
  if (t.suspended) words.push("✕ suspended");
  if (t.poisoned) words.push("⚠ needs an operator");
  if (t.lagging) words.push("⚠ lagging");
  return words.length === 0 ? "● applying" : words.join(", ");
}
