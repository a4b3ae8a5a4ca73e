// A device connection's tags as CSV, on the Tags page: "Export CSV" downloads the connection's tag list
// (GET /api/v1/connections/{id}/tags/export); with Edit connections, "Import CSV" sends a picked table back
// (POST .../tags/import) on the revision its export was read from (else the file's now), and shows what was applied, or every
// problem with its line in the table. Nothing is written unless every row is valid.
import { api, pathParam } from "../api.js";
import { h, clear, failure } from "../dom.js";

export function tagTablePanel(ctx) {
  const select = h("select", { id: "tag-table-connection", "aria-label": "Connection" });
  const result = h("div", { id: "tag-table-result", "data-test": "tag-table-result" });
  const exportButton = h("button", { type: "button", id: "tag-table-export" }, "Export CSV");
  const fileInput = h("input", { type: "file", id: "tag-table-file", accept: ".csv,text/csv", hidden: true });
  const importButton = ctx.can("edit_connections")
    ? h("button", { type: "button", id: "tag-table-import", onclick: () => fileInput.click() }, "Import CSV…")
    : null;
  const exported = new Map(); // connection -> the revision its last export was read from
  const panel = h("div", { id: "tag-table" },
      h("div", { class: "toolbar" },
          h("label", { class: "inline", for: "tag-table-connection" }, "Tags of ", select),
          exportButton, importButton, fileInput),
      result);

  api.get("/api/v1/connections").then((devices) => {
    for (const device of devices) select.append(h("option", { value: device.id }, device.id));
    if (devices.length === 0) {
      panel.hidden = true;
    }
  }).catch((e) => clear(result, failure(e)));

  exportButton.addEventListener("click", async () => {
    try {
      const table = await api.get(`/api/v1/connections/${pathParam(select.value)}/tags/export`);
      exported.set(select.value, table.revision);
      const url = URL.createObjectURL(new Blob([table.csv], { type: "text/csv" }));
      const link = h("a", { href: url, download: table.file, hidden: true });
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
      clear(result, h("span", { class: "status-line ok", "data-test": "tag-table-exported" },
          `Exported ${table.file}.`));
    } catch (e) {
      clear(result, failure(e));
    }
  });

  fileInput.addEventListener("change", async () => {
    const file = fileInput.files && fileInput.files[0];
    if (!file) return;
    const connection = select.value;
    try {
      const csv = await file.text();
      // made on the revision the table was exported from (a change since then is a 409), else on the file now
      const revision = exported.get(connection)
        || (await api.get(`/api/v1/connections/${pathParam(connection)}/tags/export`)).revision;
      const answer = await api.post(`/api/v1/connections/${pathParam(connection)}/tags/import`,
          { revision, csv, comment: `tags imported from ${file.name}`, source: "console" });
      const restart = answer.needRestart.length ? ` Waiting for a restart: ${answer.needRestart.join(", ")}.` : "";
      clear(result, h("span", { class: "status-line ok", "data-test": "tag-table-imported" },
          answer.diff.length === 0 ? `${file.name}: the tags are as they were; nothing changed.`
            : `${file.name} imported: ${answer.diff.length} key(s) changed; applied live: `
              + `${answer.applied.join(", ") || "nothing"}.${restart}`));
    } catch (e) {
      const problems = e.body && Array.isArray(e.body.problems) ? e.body.problems : [];
      clear(result, h("div", { class: "card", "data-test": "tag-table-refused" },
          h("p", { class: "error", role: "alert" }, `${file.name} was not imported: ${e.message}`),
          problems.length ? h("ul", { class: "problems" }, ...problems.map((p) =>
            h("li", { "data-line": p.line }, p.message))) : null));
    } finally {
      fileInput.value = "";
    }
  });
  return panel;
}
