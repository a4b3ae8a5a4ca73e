// Connections: device connections (OPC UA, MQTT) with health, last error and counters, live from
// the "connections" event, and the outbound connections with their channel's state. An OPC UA
// connection can be browsed (a lazy tree) and its server certificates trusted (Edit connections).
// With Edit connections, device connections are added, edited, tested, disabled and deleted here
// (connection-form.js; each change is one revision of the configuration file, applied live to that
// connection only), and browsed variables become tags (browse-tags.js). Connections the file holds
// but that do not run (enabled: false) are listed as disabled. Outbound connections are added and edited
// in outbound-form.js (removed on Settings → Store & Forward, which asks about their data). Below them the pipelines
// (enable/disable) and, with View history, the historian's WAL tables.
import { api, request } from "../api.js";
import { h, clear, loading, empty, failure, table, keepingFocus, say } from "../dom.js";
import { confirmDialog } from "../dialogs.js";
import { editConnection, readDevices, deviceKey } from "./connection-form.js";
import { editOutbound, OUTBOUND_KINDS } from "./outbound-form.js";
import { subscribe } from "../events.js";
import * as f from "../format.js";
import { browseTree } from "./browse-tree.js";
import { certificatePanel } from "./certificates.js";
import { pipelinesSection } from "./pipelines.js";
import { walSection } from "./wal.js";

export async function render(root, _params, ctx) {
  const editable = ctx.can("edit_connections");
  const devices = h("div", { id: "devices" }, loading());
  const result = h("p", { id: "connections-result", class: "status-line", role: "status", "aria-live": "polite" });
  let configured = null; // devices.<id> of the file, read with View connections; null until read
  let running = [];
  const outbound = h("div", { id: "outbound" }, loading());
  const detail = h("section", { id: "connection-detail", "aria-live": "polite" });
  const pipelines = pipelinesSection(ctx);
  const channels = api.get("/api/v1/store-forward");
  const wal = ctx.can("view_history")
    ? walSection(ctx, channels.then((list) => list.some((c) => c.connection === "historian"))) : null;
  clear(root,
      h("h2", {}, "Connections"),
      h("h3", {}, "Device connections"),
      editable ? h("div", { class: "buttons" },
          h("button", { type: "button", id: "add-opcua", onclick: () => change(editConnection({ id: null, kind: "opcua" })) },
              "Add OPC UA connection"),
          h("button", { type: "button", id: "add-mqtt", onclick: () => change(editConnection({ id: null, kind: "mqtt" })) },
              "Add MQTT connection")) : null,
      result,
      devices,
      detail,
      h("h3", {}, "Outbound connections"),
      editable ? h("div", { class: "buttons" },
          h("label", { class: "inline", for: "add-outbound-kind" }, "Kind ",
              h("select", { id: "add-outbound-kind" }, OUTBOUND_KINDS.map((k) => h("option", { value: k }, k)))),
          h("button", { type: "button", id: "add-outbound", onclick: () => change(editOutbound({ id: null,
            kind: root.querySelector("#add-outbound-kind").value })) }, "Add outbound connection")) : null,
      outbound,
      pipelines.element,
      wal ? wal.element : null);

  const openDetail = (kind, device) => {
    clear(detail, kind === "browse" ? browseTree(device, { editable, onTagsAdded: () => refreshConfig() })
        : certificatePanel(device, ctx));
    const heading = detail.querySelector("h3");
    if (heading) heading.focus();
  };
  const actions = editable ? {
    edit: (id) => change(editConnection({ id })),
    test: (id) => testConnection(id),
    enable: (id, on) => setEnabled(id, on),
    remove: (id) => removeConnection(id),
  } : null;
  const showDevices = (list) => {
    running = list;
    keepingFocus(() => renderDevices(devices, list, configured, openDetail, actions));
  };
  const refreshConfig = () => readDevices().then((read) => {
    configured = read.devices;
    showDevices(running);
  }, () => {});

  /** Waits for a dialog's or a request's answer and says what was applied. */
  async function change(pending) {
    try {
      const done = await pending;
      if (!done) return;
      const written = done.written || done;
      say(result, `${done.id ? "Saved " + done.id : "Saved"} as revision ${short(written.revision)}.`
          + (written.applied && written.applied.length ? " Applied live: " + written.applied.join(", ") + "." : "")
          + (written.needRestart && written.needRestart.length ? " Waits for a restart: " + written.needRestart.join(", ") + "." : ""),
          "ok");
      await refreshConfig();
      api.get("/api/v1/connections").then(showDevices, () => {});
    } catch (e) {
      say(result, e.message, "error");
    }
  }

  async function testConnection(id) {
    say(result, `Testing ${id}…`);
    try {
      const t = await api.post("/api/v1/connections/test", { id });
      say(result, `${id}: ${t.ok ? "OK" : "Failed"} · reachable: ${t.reachable ? "yes" : "no"} · authenticated: `
          + `${t.authenticated == null ? "not tried" : t.authenticated ? "yes" : "no"} · certificate: `
          + `${t.certificate.replaceAll("_", " ")}${t.latencyMs == null ? "" : " · " + t.latencyMs + " ms"} — ${t.message}`,
          t.ok ? "ok" : "error");
    } catch (e) {
      say(result, e.message, "error");
    }
  }

  async function setEnabled(id, on) {
    const read = await readDevices();
    await change(api.put("/api/v1/config/" + encodeURIComponent(deviceKey(id) + ".enabled"),
        { revision: read.fileRevision, value: on, comment: (on ? "enabled " : "disabled ") + id, source: "console" })
        .then((written) => ({ id, written })));
  }

  async function removeConnection(id) {
    const sure = await confirmDialog({ title: `Delete connection ${id}?`, message: `The connection ${id} and its tags`
        + " are removed from the configuration file (the earlier revision is kept) and the connection stops now."
        + " Its history stays in the historian.", confirmLabel: "Delete", danger: true });
    if (!sure) return;
    const read = await readDevices();
    await change(request("DELETE", "/api/v1/config/" + encodeURIComponent(deviceKey(id)),
        { revision: read.fileRevision, comment: "deleted " + id, source: "console" })
        .then((written) => ({ id, written })));
  }
  const editOutboundRow = editable ? (id) => change(editOutbound({ id })) : null;
  const showOutbound = (list) => keepingFocus(() => renderOutbound(outbound, list, editOutboundRow));
  const retryDevices = () => api.get("/api/v1/connections").then(showDevices,
      (e) => clear(devices, failure(e, retryDevices)));

  const [deviceList, channelList] = await Promise.allSettled([api.get("/api/v1/connections"), channels]);
  if (deviceList.status === "fulfilled") showDevices(deviceList.value);
  else clear(devices, failure(deviceList.reason, retryDevices));
  if (channelList.status === "fulfilled") showOutbound(channelList.value);
  else clear(outbound, failure(channelList.reason));

  refreshConfig();
  const stops = [subscribe("connections", showDevices), subscribe("status", showOutbound), pipelines.stop];
  if (wal) stops.push(wal.stop);
  return () => stops.forEach((stop) => stop());
}

function short(revision) {
  return String(revision || "").replace(/^sha256:/, "").slice(0, 12);
}

function renderDevices(holder, list, configured, openDetail, actions) {
  // connections the file holds that do not run: disabled (enabled: false)
  const idle = Object.entries(configured || {}).filter(([id, value]) => value && value.enabled === false
      && !list.some((d) => d.id === id));
  if (list.length === 0 && idle.length === 0) {
    clear(holder, empty("No device connections are configured."));
    return;
  }
  const { element, body } = table(["Connection", "Type", "State", "Since", "Last error / warnings", "Counters", "Tags", ""],
      { "data-test": "devices-table" });
  const editing = (id) => actions && configured && configured[id];
  for (const d of list) {
    body.append(h("tr", { "data-test": "device-row", "data-id": d.id },
        h("th", { scope: "row" }, d.id),
        h("td", {}, d.type),
        h("td", {}, stateBadge(d.state)),
        h("td", {}, f.time(d.since)),
        // the last error, then conditions that lose data while up (itemsMissingChanges: ...)
        h("td", { class: "error-text" }, h("div", { class: "clamp", title: problemsOf(d) || null }, problemsOf(d) || "–")),
        h("td", {}, h("ul", { class: "counters" }, Object.entries(d.counters || {}).map(([name, n]) =>
            h("li", {}, h("span", { class: "sub" }, name.replaceAll("_", " ")), " ", f.count(n))))),
        h("td", {}, d.tags),
        h("td", { class: "actions" },
            d.browsable ? h("button", { type: "button", id: "browse-" + d.id, onclick: () => openDetail("browse", d) }, "Browse") : null,
            d.certificates ? h("button", { type: "button", id: "certs-" + d.id, onclick: () => openDetail("certs", d) },
                "Certificates") : null,
            editing(d.id) ? editButtons(d.id, true, actions) : null)));
  }
  for (const [id, value] of idle) {
    const kind = value.opcua ? "opcua" : value.mqtt ? "mqtt" : "?";
    body.append(h("tr", { "data-test": "device-row", "data-id": id, class: "disabled" },
        h("th", { scope: "row" }, id),
        h("td", {}, kind),
        h("td", {}, h("span", { class: "pill state-disabled" }, "– DISABLED")),
        h("td", {}, "–"), h("td", {}, "not running (enabled: false)"), h("td", {}, "–"),
        h("td", {}, kind === "opcua" ? (value.opcua.tags || []).length : "–"),
        h("td", { class: "actions" }, actions ? editButtons(id, false, actions) : null)));
  }
  clear(holder, element);
}

/** Edit, Test, Disable or Enable, Delete: with Edit connections, for a connection of the file. */
function editButtons(id, enabled, actions) {
  return [
    h("button", { type: "button", id: "edit-" + id, onclick: () => actions.edit(id) }, "Edit"),
    enabled ? h("button", { type: "button", id: "test-" + id, onclick: () => actions.test(id) }, "Test") : null,
    h("button", { type: "button", id: (enabled ? "disable-" : "enable-") + id, onclick: () => actions.enable(id, !enabled) },
        enabled ? "Disable" : "Enable"),
    h("button", { type: "button", id: "delete-" + id, class: "danger", onclick: () => actions.remove(id) }, "Delete"),
  ];
}

function renderOutbound(holder, list, edit) {
  if (list.length === 0) {
    clear(holder, empty("No outbound connections are configured."));
    return;
  }
  const { element, body } = table(["Connection", "Destination", "Channel", "Buffered", "Delivered", "Last error",
    ...(edit ? [""] : [])], { "data-test": "outbound-table" });
  for (const c of list) {
    body.append(h("tr", { "data-test": "outbound-row", "data-id": c.connection },
        h("th", { scope: "row" }, h("a", { href: "#/store-forward", id: "outbound-" + c.connection }, c.connection)),
        h("td", {}, stateBadge(c.destination)),
        h("td", {}, String(c.state).toLowerCase().replaceAll("_", " ")),
        h("td", {}, f.count(c.bufferedItems), " items"),
        h("td", {}, f.count(c.itemsDelivered)),
        h("td", { class: "error-text" }, h("div", { class: "clamp", title: c.lastError || null }, c.lastError || "–")),
        edit && !["historian", "audit"].includes(c.connection) ? h("td", {}, h("button", { type: "button",
          id: "edit-outbound-" + c.connection, onclick: () => edit(c.connection) }, "Edit…")) : edit ? h("td") : null));
  }
  clear(holder, element);
}

/** A connection's last error and its warnings, one text; empty when there are none. */
function problemsOf(d) {
  return [d.lastError, ...(d.warnings || [])].filter(Boolean).join(" · ");
}

/** UP / DOWN / UNKNOWN as a word with a symbol, so colour is not the only cue. */
export function stateBadge(state) {
  const symbol = { UP: "●", DOWN: "✕", UNKNOWN: "?" }[state] || "";
  return h("span", { class: "pill state-" + String(state).toLowerCase() }, symbol + " " + state);
}
