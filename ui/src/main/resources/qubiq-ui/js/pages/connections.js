// Connections: device connections (OPC UA, MQTT) with health, last error and counters, live from
// the "connections" event, and the outbound connections with their channel's state. An OPC UA
// connection can be browsed (a lazy tree) and its server certificates trusted (Edit connections).
// Below them the pipelines (enable/disable) and, with View history, the historian's WAL tables.
import { api, pathParam } from "../api.js";
import { h, clear, loading, empty, failure, table, keepingFocus } from "../dom.js";
import { subscribe } from "../events.js";
import * as f from "../format.js";
import { browseTree } from "./browse-tree.js";
import { certificatePanel } from "./certificates.js";
import { pipelinesSection } from "./pipelines.js";
import { walSection } from "./wal.js";

export async function render(root, _params, ctx) {
  const devices = h("div", { id: "devices" }, loading());
  const outbound = h("div", { id: "outbound" }, loading());
  const detail = h("section", { id: "connection-detail", "aria-live": "polite" });
  const pipelines = pipelinesSection(ctx);
  const wal = ctx.can("view_history") ? walSection(ctx) : null;
  clear(root,
      h("h2", {}, "Connections"),
      h("h3", {}, "Device connections"), devices,
      detail,
      h("h3", {}, "Outbound connections"), outbound,
      pipelines.element,
      wal ? wal.element : null);

  const openDetail = (kind, device) => {
    clear(detail, kind === "browse" ? browseTree(device) : certificatePanel(device, ctx));
    const heading = detail.querySelector("h3");
    if (heading) heading.focus();
  };
  const showDevices = (list) => keepingFocus(() => renderDevices(devices, list, openDetail));
  const showOutbound = (list) => keepingFocus(() => renderOutbound(outbound, list));
  const retryDevices = () => api.get("/api/v1/connections").then(showDevices,
      (e) => clear(devices, failure(e, retryDevices)));

  const [deviceList, channelList] = await Promise.allSettled([
    api.get("/api/v1/connections"), api.get("/api/v1/store-forward")]);
  if (deviceList.status === "fulfilled") showDevices(deviceList.value);
  else clear(devices, failure(deviceList.reason, retryDevices));
  if (channelList.status === "fulfilled") showOutbound(channelList.value);
  else clear(outbound, failure(channelList.reason));

  const stops = [subscribe("connections", showDevices), subscribe("status", showOutbound), pipelines.stop];
  if (wal) stops.push(wal.stop);
  return () => stops.forEach((stop) => stop());
}

function renderDevices(holder, list, openDetail) {
  if (list.length === 0) {
    clear(holder, empty("No device connections are configured."));
    return;
  }
  const { element, body } = table(["Connection", "Type", "State", "Since", "Last error / warnings", "Counters", "Tags", ""],
      { "data-test": "devices-table" });
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
                "Certificates") : null)));
  }
  clear(holder, element);
}

function renderOutbound(holder, list) {
  if (list.length === 0) {
    clear(holder, empty("No outbound connections are configured."));
    return;
  }
  const { element, body } = table(["Connection", "Destination", "Channel", "Buffered", "Delivered", "Last error"],
      { "data-test": "outbound-table" });
  for (const c of list) {
    body.append(h("tr", { "data-test": "outbound-row", "data-id": c.connection },
        h("th", { scope: "row" }, h("a", { href: "#/store-forward", id: "outbound-" + c.connection }, c.connection)),
        h("td", {}, stateBadge(c.destination)),
        h("td", {}, String(c.state).toLowerCase().replaceAll("_", " ")),
        h("td", {}, f.count(c.bufferedItems), " items"),
        h("td", {}, f.count(c.itemsDelivered)),
        h("td", { class: "error-text" }, h("div", { class: "clamp", title: c.lastError || null }, c.lastError || "–"))));
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
