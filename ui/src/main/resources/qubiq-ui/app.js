// The console's first page: gateway name, version, uptime and component states from /health.
// /health answers 503 while starting or stopping, with the same JSON body, so both are rendered.
"use strict";

const REFRESH_MS = 2000;

function text(id, value) {
  document.getElementById(id).textContent = value;
}

function formatUptime(seconds) {
  const d = Math.floor(seconds / 86400);
  const h = Math.floor((seconds % 86400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return (d ? d + "d " : "") + (d || h ? h + "h " : "") + (d || h || m ? m + "m " : "") + s + "s";
}

function cell(row, value, className) {
  const td = document.createElement("td");
  td.textContent = value;
  if (className) td.className = className;
  row.appendChild(td);
}

function render(report) {
  document.title = report.name + " — Qubiq";
  text("gateway-name", report.name);
  text("version", report.version);
  text("uptime", formatUptime(report.uptimeSeconds));
  text("started", new Date(report.startedAt).toLocaleString());
  const badge = document.getElementById("readiness");
  badge.textContent = report.status;
  badge.className = "badge state-" + report.status.toLowerCase();
  const body = document.getElementById("components");
  body.replaceChildren();
  for (const c of report.components) {
    const row = document.createElement("tr");
    cell(row, c.name);
    cell(row, c.state, "state-" + c.state.toLowerCase());
    cell(row, new Date(c.since).toLocaleTimeString());
    cell(row, c.error || "");
    body.appendChild(row);
  }
}

async function refresh() {
  const error = document.getElementById("error");
  try {
    const response = await fetch("/health", { cache: "no-store" });
    render(await response.json());
    error.hidden = true;
  } catch (e) {
    error.textContent = "The gateway does not answer (" + e.message + "). Retrying…";
    error.hidden = false;
    const badge = document.getElementById("readiness");
    badge.textContent = "UNREACHABLE";
    badge.className = "badge state-failed";
  }
}

refresh();
setInterval(refresh, REFRESH_MS);
