// Data integrity: "did we lose data?" at a glance. The loss ledger's verdict for the chosen period
// (a plain "No data lost" when nothing was), totals per UTC day, and every entry newest first:
// where, how many, why and, for an operator's drop, who. Filters: period, connection, reason.
import { api } from "../api.js";
import { h, clear, loading, failure, table } from "../dom.js";
import * as f from "../format.js";

const LIMIT = 500;
const PERIODS = [["1", "Last 24 hours"], ["7", "Last 7 days"], ["30", "Last 30 days"], ["", "Everything kept"]];
const REASONS = {
  tag_bus_overflow: "tag bus subscriber overflow",
  subscriber_failed: "tag bus subscriber's handler failed",
  drop_oldest: "oldest dropped at the buffer limit",
  refused: "refused at the buffer limit",
  buffer_damaged: "damaged buffer records",
  quarantine_damaged: "damaged quarantine entries",
  operator_drop: "dropped from quarantine by an operator",
  orphan_discarded: "orphaned channel discarded by an operator",
  max_bytes_shrunk: "oldest items dropped by an operator when max_bytes was lowered",
  connection_removed: "backlog discarded by an operator with its removed connection",
  subscriber_closed: "queued for a pipeline or the historian when it was closed or the gateway stopped",
  historian_rows_refused: "historian rows refused by QuestDB",
  device_queue_overflow: "dropped by the device's queue (OPC UA Overflow)",
  malformed_payload: "malformed device payload",
  dynamic_tag_limit: "refused past the connection's max_dynamic_tags",
  expression_failed: "pipeline expression failed",
  disk_full: "disk full",
};

export async function render(root) {
  const period = h("select", { id: "losses-period", name: "period" },
      PERIODS.map(([days, label]) => h("option", { value: days, selected: days === "7" }, label)));
  const connection = h("input", { id: "losses-connection", name: "connection", type: "text", size: 14 });
  const reason = h("select", { id: "losses-reason", name: "reason" }, h("option", { value: "" }, "Any reason"),
      Object.entries(REASONS).map(([label, text]) => h("option", { value: label }, `${label} (${text})`)));
  const form = h("form", { class: "toolbar wrap", id: "losses-filter" },
      h("label", { class: "inline", for: "losses-period" }, "Period ", period),
      h("label", { class: "inline", for: "losses-connection" }, "Connection ", connection),
      h("label", { class: "inline", for: "losses-reason" }, "Reason ", reason),
      h("button", { type: "submit", class: "primary", id: "losses-apply" }, "Apply"));
  const verdict = h("div", { id: "losses-summary", "data-test": "losses-summary", role: "status", "aria-live": "polite" },
      loading());
  const days = h("div", { id: "losses-days" });
  const entries = h("div", { id: "losses-entries" });
  clear(root, h("h2", {}, "Data integrity"),
      h("p", { class: "hint" }, "Every loss of data anywhere in the gateway, from the loss ledger: where, how many, "
          + "why and who. Days are UTC; times are shown in this browser's time zone."),
      form, verdict, days, entries);

  async function load() {
    const params = new URLSearchParams({ limit: String(LIMIT) });
    if (period.value) params.set("from", new Date(Date.now() - Number(period.value) * 86400000).toISOString());
    if (connection.value.trim()) params.set("connection", connection.value.trim());
    if (reason.value) params.set("reason", reason.value);
    clear(verdict, loading());
    let report;
    try {
      report = await api.get("/api/v1/losses?" + params);
    } catch (e) {
      clear(verdict, failure(e, load));
      clear(days);
      clear(entries);
      return;
    }
    show(report, period.options[period.selectedIndex].text.toLowerCase());
  }

  function show(report, when) {
    const lost = report.totalItems > 0 || report.entries.length > 0;
    verdict.dataset.items = String(report.totalItems);
    clear(verdict,
        lost
            ? h("p", { class: "verdict lost", "data-test": "losses-verdict" }, h("span", { "aria-hidden": "true" }, "⚠ "),
                `${f.count(report.totalItems)} items lost (${f.bytes(report.totalBytes)}) — ${when}`)
            : h("p", { class: "verdict none", "data-test": "losses-verdict" }, h("span", { "aria-hidden": "true" }, "✓ "),
                `No data lost — ${when}`),
        report.damage.records > 0 || report.damage.files > 0
            ? h("p", { class: "result partial", "data-test": "losses-damage" }, `The ledger found damage in its own files `
                + `when the gateway started: ${f.count(report.damage.records)} records (${f.bytes(report.damage.bytes)}) and `
                + `${f.count(report.damage.files)} files could not be read, so losses they described are missing here.`)
            : null,
        report.unrecorded > 0
            ? h("p", { class: "result partial", "data-test": "losses-unrecorded" }, `${f.count(report.unrecorded)} loss `
                + "reports could not be stored (the ledger was at its size bound); they are in the log and the metrics.")
            : null);
    if (!lost) {
      clear(days);
      clear(entries);
      return;
    }
    const totals = table(["Day (UTC)", "Items lost", "Bytes", "Entries"], { "data-test": "losses-days", class: "losses-days" });
    for (const day of report.totals) {
      totals.body.append(h("tr", { "data-test": "losses-day", "data-day": day.day },
          h("th", { scope: "row", class: "nowrap" }, day.day),
          h("td", {}, f.count(day.items)), h("td", {}, f.bytes(day.bytes)), h("td", {}, f.count(day.entries))));
    }
    clear(days, h("h3", {}, "Per day"), totals.element);
    const list = table(["Minute", "Where", "Reason", "Items", "Bytes", "Sequences", "Detail"],
        { "data-test": "losses-table", class: "losses" });
    for (const e of report.entries) {
      list.body.append(h("tr", { "data-test": "loss-row", "data-reason": e.reason, "data-connection": e.connection,
        class: e.operatorAction ? "" : "alarm" },
          h("td", { class: "nowrap" }, f.time(e.minute),
              e.reports > 1 ? h("div", { class: "sub" }, `${f.count(e.reports)} reports`) : null),
          h("td", {}, e.connection, h("div", { class: "sub" }, e.component + (e.tag ? " · " + e.tag : ""))),
          h("td", {}, h("span", { class: "mono" }, e.reason), h("div", { class: "sub" },
              e.operatorAction ? `by ${e.who || "an operator"}` : (REASONS[e.reason] || ""))),
          h("td", {}, f.count(e.items)),
          h("td", {}, e.bytes > 0 ? f.bytes(e.bytes) : "–"),
          h("td", { class: "mono nowrap" }, e.firstSequence > 0 ? `${e.firstSequence}–${e.lastSequence}` : "–"),
          h("td", {}, h("div", { class: "clamp", title: e.detail }, e.detail))));
    }
    clear(entries, h("h3", {}, "Entries, newest first"), list.element,
        report.truncated ? h("p", { class: "hint" }, `Showing the newest ${LIMIT}; narrow the filter to see older ones.`)
            : null);
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    load();
  });
  await load();
  return undefined;
}
