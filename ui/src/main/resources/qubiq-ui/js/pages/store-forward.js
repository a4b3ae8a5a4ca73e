// Settings → Store & Forward: one row per outbound connection's channel, live from the "status"
// event. A channel above its high-water mark is marked by colour, an icon and the words
// "pressure alarm", so it does not rely on colour alone; one whose full buffer refuses new items
// says "refusing" the same way, and its refused count stands next to the dropped one (both are
// lost items). A Settings cell shows each outbound connection's overflow policy and durability from
// the configuration and, with Edit connections, an Edit button for its store-and-forward settings
// (channel-settings.js); the historian's and the audit journal's channels have none. Below the
// table, the orphaned channels (with Edit connections: Attach and Discard, each behind a dialog), and
// the gateway's active alarms, updated by the "alarm" event.
import { api, pathParam } from "../api.js";
import { h, clear, loading, empty, failure, table, say, statusLine } from "../dom.js";
import { subscribe } from "../events.js";
import * as f from "../format.js";
import { alarmsPanel } from "./alarms.js";
import { readChannelSettings, editChannelSettings, policyText, outcomeText } from "./channel-settings.js";
import { removeOutbound } from "./channel-removal.js";
import { formDialog, field } from "../dialogs.js";

/** How far back the fill's trend looks: short, so an outage shows within seconds (the rates lag). */
const TREND_WINDOW_MS = 10_000;

/** The store-forward default until the status carries each channel's own mark. */
const DEFAULT_HIGH_WATER_PERCENT = 80;

const STATE_TEXT = {
  IDLE: "idle", FAST_PATH: "fast path", DRAINING: "draining", BACKING_OFF: "backing off",
  GATED: "destination down", FULL: "full", STALLED: "stalled", FAILED: "forwarder failed, restarting", STOPPED: "stopped",
};
const TROUBLE = new Set(["BACKING_OFF", "GATED", "FULL", "STALLED", "FAILED", "STOPPED"]);

export async function render(root, params, ctx) {
  const canEdit = ctx.can("edit_connections");
  const outcome = statusLine("sf-settings-outcome");
  outcome.setAttribute("data-test", "sf-settings-outcome");
  const banner = h("div", { id: "sf-alarms", role: "status", "aria-live": "polite" });
  const holder = h("div", { id: "sf-table" }, loading());
  const orphans = h("div", { id: "sf-orphans" });
  const alarms = alarmsPanel();
  clear(root,
      h("h2", {}, h("span", { class: "crumb" }, "Settings → "), "Store & Forward"),
      h("p", { class: "hint" }, "Each outbound connection buffers what it cannot deliver yet. "
          + "Figures update every second."),
      banner, outcome, holder, orphans, alarms.element);
  const rows = new Map();
  // the configuration's side of each row; read at start and again after each change
  const settings = { channels: new Map(), pendingRestart: [], problem: null };
  // found at start or left by a removal; an operator's attach or discard takes one off the list
  const orphanActions = { canEdit, outcome, targets: () => [...settings.channels.keys()].sort() };
  showOrphans(orphans, orphanActions);
  const refillSettings = () => rows.forEach((row) => row.settings(settings));
  const readSettings = async () => {
    try {
      ({ channels: settings.channels, pendingRestart: settings.pendingRestart } = await readChannelSettings());
      settings.problem = null;
    } catch (e) {
      settings.problem = e.message;
    }
    refillSettings();
  };
  const edit = async (connection) => {
    try {
      const answer = await editChannelSettings(connection, rows.get(connection)?.inForce(),
          rows.get(connection)?.held());
      if (!answer) return;
      say(outcome, outcomeText(answer), (answer.needRestart || []).length ? "info" : "ok");
      await readSettings();
    } catch (e) {
      say(outcome, e.message, "error");
    }
  };
  const remove = async (connection) => {
    try {
      const answer = await removeOutbound(connection, rows.get(connection)?.held());
      if (!answer) return;
      say(outcome, `${connection} removed from the configuration file; ` + outcomeText(answer), "info");
      await readSettings();
      showOrphans(orphans, orphanActions); // data kept as an orphan is listed at once
    } catch (e) {
      say(outcome, e.message, "error");
    }
  };
  const update = (channels) => {
    const fresh = show(holder, banner, channels, rows, { canEdit, edit, remove });
    if (fresh) refillSettings();
  };
  await readSettings();
  const load = async () => {
    try {
      update(await api.get("/api/v1/store-forward"));
    } catch (e) {
      clear(holder, failure(e, load));
    }
  };
  await load();
  const unsubscribe = subscribe("status", update);
  return () => {
    unsubscribe();
    alarms.stop();
  };
}

/**
 * Store-and-forward directories that no configured connection owns (renamed or removed while they
 * held items): listed so their data is not lost from sight. Nothing is shown when there are none.
 * With Edit connections each row has Attach (to an empty outbound connection of the same kind, which
 * delivers the items) and Discard (the name typed again; every item is recorded in the loss ledger).
 */
async function showOrphans(holder, actions) {
  let orphans;
  try {
    orphans = await api.get("/api/v1/orphaned-channels");
  } catch (e) {
    clear(holder, failure(e, () => showOrphans(holder, actions)));
    return;
  }
  if (orphans.length === 0) {
    clear(holder);
    return;
  }
  const columns = ["Directory", "Undelivered", "Quarantined", "Last change"];
  if (actions.canEdit) columns.push("Actions");
  const { element, body } = table(columns, { class: "sf", "data-test": "sf-orphans-table" });
  const done = async (answer) => {
    say(actions.outcome, `connections/${answer.connection}: ${answer.message}.`, "ok");
    await showOrphans(holder, actions);
  };
  for (const o of orphans) {
    const row = h("tr", { "data-test": "sf-orphan", "data-connection": o.connection },
        h("th", { scope: "row" }, "connections/" + o.connection),
        h("td", {}, o.bufferedItems < 0 ? (o.problem || "unreadable")
            : [f.count(o.bufferedItems) + " items", h("div", { class: "sub" }, f.bytes(o.bufferedBytes))]),
        h("td", {}, f.count(o.quarantineEntries) + " items"),
        h("td", {}, f.time(o.lastModified)));
    if (actions.canEdit) {
      const attach = h("button", { type: "button", "data-test": "sf-orphan-attach" }, "Attach…");
      const discard = h("button", { type: "button", class: "danger", "data-test": "sf-orphan-discard" }, "Discard…");
      attach.addEventListener("click", async () => {
        const answer = await attachDialog(o, actions.targets());
        if (answer) await done(answer);
      });
      discard.addEventListener("click", async () => {
        const answer = await discardDialog(o);
        if (answer) await done(answer);
      });
      row.append(h("td", {}, attach, " ", discard));
    }
    body.append(row);
  }
  clear(holder,
      h("h3", {}, "Orphaned channels"),
      h("p", { class: "alarm-banner", "data-test": "sf-orphans-banner" }, h("span", { "aria-hidden": "true" }, "⚠ "),
          "No configured connection owns these directories (renamed or removed?). Their items are neither "
          + "delivered nor deleted until you choose: attach one to an outbound connection of the same kind "
          + "(it must hold nothing, it then delivers the items in order), or discard it (every item is "
          + "recorded as lost in the loss ledger)."),
      element);
}

function itemsText(o) {
  const buffered = o.bufferedItems < 0 ? "an unreadable buffer" : f.count(o.bufferedItems) + " undelivered items";
  return `${buffered} and ${f.count(o.quarantineEntries)} quarantined items`;
}

function attachDialog(o, targets) {
  return formDialog({
    id: "orphan-attach-dialog",
    title: `Attach connections/${o.connection}?`,
    submitLabel: "Attach",
    build(fields) {
      fields.append(
          h("p", {}, `Its ${itemsText(o)} become the chosen connection's own, delivered oldest first. `
              + "The connection must be of the same kind and hold nothing (no backlog, nothing quarantined)."),
          h("label", { class: "field" }, h("span", {}, "Outbound connection"),
              h("select", { name: "connection", "data-test": "sf-orphan-attach-target", required: true },
                  targets.map((id) => h("option", { value: id }, id)))));
    },
    onSubmit: (form) => api.post(`/api/v1/orphaned-channels/${pathParam(o.connection)}/attach`,
        { connection: form.elements.connection.value }),
  });
}

function discardDialog(o) {
  return formDialog({
    id: "orphan-discard-dialog",
    title: `Discard connections/${o.connection}?`,
    submitLabel: "Discard for good",
    build(fields) {
      fields.append(
          h("p", {}, `Its ${itemsText(o)} are deleted and cannot be recovered; each is recorded as lost `
              + "(orphan_discarded) in the loss ledger, with your name. Type the directory's name to confirm."),
          field("Name", { name: "confirm", autocomplete: "off", "data-test": "sf-orphan-discard-confirm",
            placeholder: o.connection, required: true }),
          field("Comment (optional)", { name: "comment", "data-test": "sf-orphan-discard-comment" }));
    },
    async onSubmit(form) {
      if (form.elements.confirm.value !== o.connection) {
        throw new Error(`Type ${o.connection} to confirm.`);
      }
      return api.post(`/api/v1/orphaned-channels/${pathParam(o.connection)}/discard`,
          { confirm: form.elements.confirm.value, comment: form.elements.comment.value });
    },
  });
}

/** Fills the table; true when its rows were built anew. */
function show(holder, banner, channels, rows, editing) {
  const alarms = channels.filter((c) => c.pressureAlarm);
  const refusing = channels.filter((c) => c.refusing);
  clear(banner,
      refusing.length === 0 ? null : h("p", { class: "alarm-banner", "data-test": "sf-refusing-banner" },
          h("span", { "aria-hidden": "true" }, "⚠ "),
          `Refusing: ${refusing.map((c) => c.connection).join(", ")} full; new items are turned away and lost.`),
      alarms.length === 0 ? null : h("p", { class: "alarm-banner", "data-test": "sf-alarm-banner" },
          h("span", { "aria-hidden": "true" }, "⚠ "),
          `Pressure alarm: ${alarms.map((c) => c.connection).join(", ")} above the high-water mark.`));
  if (channels.length === 0) {
    rows.clear();
    clear(holder, empty("No outbound connections are configured, so there are no store-and-forward channels."));
    return false;
  }
  const names = channels.map((c) => c.connection);
  const fresh = names.join("\n") !== [...rows.keys()].join("\n");
  if (names.join("\n") !== [...rows.keys()].join("\n")) {
    // the set of channels changed: new table; otherwise rows are updated in place so that links
    // and focus stay put while the figures change every second
    rows.clear();
    const { element, body } = table(["Connection", "State", "Fill", "Buffered", "Oldest item", "In / out",
      "Time to full / drain", "Lost at the limit", "Quarantined", "Last error", "Settings"], { class: "sf", "data-test": "sf-table" });
    for (const channel of channels) {
      const row = channelRow(channel.connection, editing);
      rows.set(channel.connection, row);
      body.append(row.element);
    }
    clear(holder, element);
  }
  for (const channel of channels) rows.get(channel.connection).update(channel);
  return fresh;
}

/** One channel's row: built once, its cells refilled on each update. */
function channelRow(connection, { canEdit, edit, remove }) {
  const cells = Array.from({ length: 10 }, () => h("td"));
  const name = h("th", { scope: "row" });
  const link = h("a", { href: `#/store-forward/${pathParam(connection)}/quarantine`, id: "sf-quarantine-" + connection,
    "data-test": "sf-quarantine-link" });
  const quarantineBytes = h("div", { class: "sub" });
  cells[7].append(link, quarantineBytes);
  const element = h("tr", { id: "sf-row-" + connection, "data-test": "sf-row", "data-connection": connection }, name, cells);
  const [state, fillCell, buffered, oldest, rates, outlookCell, dropped, , lastError, settingsCell] = cells;
  settingsCell.setAttribute("data-test", "sf-settings");
  state.setAttribute("data-test", "sf-state");
  buffered.setAttribute("data-test", "sf-buffered");
  const droppedCount = h("div", { "data-test": "sf-dropped" });
  const refusedCount = h("div", { "data-test": "sf-refused" });
  dropped.append(droppedCount, refusedCount);
  const fills = []; // [time in ms, buffered bytes] of the last TREND_WINDOW_MS

  let latest = null; // the last status: the overflow policy in force comes from the channel itself
  let shown = null; // the configuration entry the Settings cell was built from
  const policy = h("div", { "data-test": "sf-policy" });
  const showPolicy = () => {
    if (shown) clear(policy, "At the limit: ", policyText(shown, latest && latest.overflowPolicy));
  };

  function update(c) {
    const policyBefore = latest && latest.overflowPolicy;
    latest = c;
    if (c.overflowPolicy !== policyBefore) showPolicy();
    const highWater = Number.isFinite(c.highWaterPercent) ? c.highWaterPercent : DEFAULT_HIGH_WATER_PERCENT;
    const fill = Math.max(0, Math.min(100, Number(c.fillPercent) || 0));
    element.className = c.pressureAlarm ? "alarm" : "";
    element.dataset.items = c.bufferedItems;
    element.dataset.state = c.state;
    clear(name, c.connection, h("div", { class: "sub" }, "destination ",
        h("span", { class: "state-" + String(c.destination).toLowerCase() }, c.destination)));
    state.className = TROUBLE.has(c.state) || c.refusing ? "warn" : "";
    clear(state, STATE_TEXT[c.state] || c.state,
        c.refusing ? h("div", { class: "pill alarm", "data-test": "sf-refusing" }, "⚠ refusing: buffer full") : null,
        c.pressureAlarm ? h("div", { class: "pill alarm", "data-test": "sf-pressure" }, "⚠ pressure alarm") : null);
    const level = h("span", { class: "level" });
    const mark = h("span", { class: "mark", title: `high-water mark ${highWater} %` });
    level.style.width = fill + "%"; // through the CSSOM: no inline style attributes for the CSP to allow
    mark.style.left = highWater + "%";
    clear(fillCell,
        h("div", { class: "fill" + (c.pressureAlarm ? " high" : ""), role: "meter", "aria-valuemin": 0,
          "aria-valuemax": 100, "aria-valuenow": fill.toFixed(1),
          "aria-label": `${fill.toFixed(1)} % of the limit, high-water mark at ${highWater} %` }, level, mark),
        h("div", { class: "sub" }, `${fill.toFixed(1)} % of ${f.bytes(c.maxBytes)}`));
    clear(buffered, h("span", { "data-test": "sf-items" }, f.count(c.bufferedItems)), " items",
        h("div", { class: "sub" }, f.bytes(c.bufferedBytes)));
    oldest.textContent = f.duration(f.seconds(c.oldestItemAge));
    clear(rates, "in ", f.rate(c.inBytesPerSecond), h("div", { class: "sub" }, "out ", f.rate(c.outBytesPerSecond)));
    const now = Date.now();
    fills.push([now, Number(c.bufferedBytes) || 0]);
    while (fills.length > 2 && now - fills[0][0] > TREND_WINDOW_MS) fills.shift();
    outlookCell.textContent = outlook(c, fills);
    const refused = Number(c.itemsRefused) || 0;
    dropped.className = c.itemsDropped > 0 || refused > 0 ? "warn" : "";
    droppedCount.textContent = "Dropped " + f.count(c.itemsDropped);
    refusedCount.textContent = "Refused " + f.count(refused);
    link.textContent = f.count(c.quarantineItems);
    link.setAttribute("aria-label", `Quarantine of ${c.connection}: ${c.quarantineItems} items`);
    quarantineBytes.textContent = f.bytes(c.quarantineBytes);
    lastError.className = "error-text";
    clear(lastError, h("div", { class: "clamp", title: c.lastError || null }, c.lastError || "–"),
        c.lastErrorAt ? h("div", { class: "sub" }, f.time(c.lastErrorAt)) : null);
  }
  /** The Settings cell from the configuration: built only when it is read, not on every status. */
  function settings({ channels, pendingRestart, problem }) {
    const entry = channels.get(connection);
    if (!entry) {
      clear(settingsCell, problem ? h("span", { class: "error-text" }, problem)
          : h("span", { class: "sub" }, "not an outbound connection: set in its own section"));
      return;
    }
    const s = entry.settings;
    shown = entry;
    showPolicy();
    clear(settingsCell,
        policy,
        h("div", { class: "sub", "data-test": "sf-durability" }, "durability ", s.durability ?? "default"),
        h("div", { class: "sub", "data-test": "sf-limits", "data-max-bytes": s.max_bytes,
          "data-batch-max-items": s.batch_max_items },
            `max ${f.bytes(s.max_bytes)}, batch ${s.batch_max_items ?? "default"} items`),
        pendingRestart.includes("outbound:" + connection) ? h("div", { class: "pill warn", "data-test": "sf-pending-restart" },
            "changed in the file; waits for a restart") : null,
        canEdit ? h("button", { type: "button", id: "sf-edit-" + connection, "data-test": "sf-edit",
          "aria-label": `Edit the store and forward settings of ${connection}`, onclick: () => edit(connection) }, "Edit")
          : null,
        canEdit ? h("button", { type: "button", id: "sf-remove-" + connection, "data-test": "sf-remove", class: "danger",
          "aria-label": `Remove the outbound connection ${connection}`, onclick: () => remove(connection) }, "Remove…")
          : null);
  }
  return { element, update, settings, inForce: () => latest && latest.overflowPolicy, held: () => latest };
}

/**
 * Time until the buffer is full (growing) or empty (shrinking): from how its bytes changed over the
 * last ten seconds once the page has seen two seconds of them, from the smoothed rates before.
 */
function outlook(c, fills) {
  const [t0, b0] = fills[0];
  const [t1, b1] = fills[fills.length - 1];
  const net = t1 - t0 >= 2000 ? (b1 - b0) * 1000 / (t1 - t0)
    : (Number(c.inBytesPerSecond) || 0) - (Number(c.outBytesPerSecond) || 0);
  if (c.bufferedBytes > 0 && net < 0) return "drains in " + f.duration(c.bufferedBytes / -net);
  if (net > 0 && c.bufferedBytes > 0) return "full in " + f.duration((c.maxBytes - c.bufferedBytes) / net);
  return c.bufferedBytes > 0 ? "steady" : "–";
}
