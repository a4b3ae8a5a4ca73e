// Tags: a tree built from the tag paths (split on "/") with each tag's latest value, quality and
// timestamps, updated in place from the "tags" event. With Write tags, a tag's Write button opens
// a dialog that sends the value straight to the device and shows the device's verdict. A connection's
// tags go out and come back as CSV (tag-tables.js).
import { api, pathParam } from "../api.js";
import { h, clear, loading, empty, failure } from "../dom.js";
import { subscribe } from "../events.js";
import { formDialog, field } from "../dialogs.js";
import * as f from "../format.js";
import { tagTablePanel } from "./tag-tables.js";

export async function render(root, _params, ctx) {
  const filter = h("input", { id: "tags-filter", type: "search", placeholder: "part of a path" });
  const holder = h("div", { id: "tags-tree" }, loading());
  const count = h("span", { id: "tags-count", class: "hint" });
  clear(root,
      h("h2", {}, "Tags"),
      h("div", { class: "toolbar" }, h("label", { class: "inline", for: "tags-filter" }, "Filter ", filter), count),
      tagTablePanel(ctx),
      holder);

  const tags = new Map();
  const cells = new Map();
  let list;
  try {
    list = await api.get("/api/v1/tags");
  } catch (e) {
    clear(holder, failure(e, () => render(root, _params, ctx)));
    return undefined;
  }
  for (const tag of list) tags.set(tag.path, tag);

  const rebuild = () => {
    cells.clear();
    const needle = filter.value.trim().toLowerCase();
    const shown = [...tags.values()].filter((t) => !needle || t.path.toLowerCase().includes(needle));
    count.textContent = `${shown.length} of ${tags.size} tags`;
    if (shown.length === 0) {
      clear(holder, empty(tags.size === 0 ? "No tag has a value yet." : "No tag matches the filter."));
      return;
    }
    clear(holder, tree(shown, cells, ctx));
  };
  filter.addEventListener("input", rebuild);
  rebuild();

  return subscribe("tags", (changed) => {
    let added = false;
    for (const tag of changed) {
      if (!tags.has(tag.path)) added = true;
      tags.set(tag.path, tag);
      const row = cells.get(tag.path);
      if (row) fill(row, tag);
    }
    if (added) rebuild();
  });
}

/** Nested <details> folders, one table row per tag in a folder. */
function tree(list, cells, ctx) {
  const rootFolder = { folders: new Map(), tags: [] };
  for (const tag of list.sort((a, b) => a.path.localeCompare(b.path))) {
    const parts = tag.path.split("/");
    let folder = rootFolder;
    for (const part of parts.slice(0, -1)) {
      if (!folder.folders.has(part)) folder.folders.set(part, { folders: new Map(), tags: [] });
      folder = folder.folders.get(part);
    }
    folder.tags.push(tag);
  }
  return folderView(rootFolder, "", cells, ctx);
}

function folderView(folder, prefix, cells, ctx) {
  const parts = [];
  if (folder.tags.length > 0) {
    parts.push(h("table", { class: "tags" },
        h("thead", {}, h("tr", {}, ["Tag", "Value", "Quality", "Source time", "Server time", ""].map((label) =>
            h("th", { scope: "col" }, label)))),
        h("tbody", {}, folder.tags.map((tag) => tagRow(tag, cells, ctx)))));
  }
  for (const [name, sub] of folder.folders) {
    parts.push(h("details", { open: true, class: "folder", "data-folder": prefix + name },
        h("summary", {}, name),
        folderView(sub, prefix + name + "/", cells, ctx)));
  }
  return h("div", { class: "folder-body" }, parts);
}

function tagRow(tag, cells, ctx) {
  const name = tag.path.split("/").pop();
  const row = {
    value: h("td", { class: "value", "data-test": "tag-value" }),
    quality: h("td", {}),
    source: h("td", {}),
    server: h("td", {}),
  };
  fill(row, tag);
  cells.set(tag.path, row);
  const writable = ctx.can("write_tags") && tag.writable !== false;
  return h("tr", { "data-test": "tag-row", "data-path": tag.path },
      h("th", { scope: "row", title: tag.path }, name, h("span", { class: "sub" }, " ", String(tag.type || "").toLowerCase())),
      row.value, row.quality, row.source, row.server,
      h("td", {}, writable ? h("button", { type: "button", id: "write-" + tag.path.replaceAll("/", "-"),
        "data-test": "tag-write", onclick: () => writeDialog(tag) }, "Write…") : null));
}

function fill(row, tag) {
  row.value.textContent = f.value(tag.value);
  const good = String(tag.quality || "").startsWith("Good");
  row.quality.replaceChildren(h("span", { class: "pill " + (good ? "ok" : "warn"), title: tag.qualityCode || "" },
      (good ? "" : "⚠ ") + (tag.quality || "–")));
  row.source.textContent = f.timeOfDay(tag.sourceTime);
  row.server.textContent = f.timeOfDay(tag.serverTime);
}

function writeDialog(tag) {
  const type = String(tag.type || "").toUpperCase();
  return formDialog({
    id: "write-dialog",
    title: "Write " + tag.path,
    submitLabel: "Write to the device",
    keepOpen: true,
    build(fields) {
      fields.append(h("p", { class: "hint" }, `Current value ${f.value(tag.value)} (${tag.quality}). `
          + "The value goes straight to the device; nothing is buffered."));
      if (type === "BOOLEAN") {
        fields.append(h("label", { class: "field" }, h("span", {}, "New value"),
            h("select", { name: "value", id: "write-value" }, h("option", { value: "true" }, "true"),
                h("option", { value: "false" }, "false"))));
      } else {
        const numeric = /INT|FLOAT|DOUBLE|LONG|SHORT|BYTE|NUMBER|DECIMAL/.test(type);
        fields.append(field("New value", { name: "value", id: "write-value", required: true,
          type: numeric ? "number" : "text", step: numeric ? "any" : null, value: tag.value ?? "" }));
      }
    },
    async onSubmit(form, message) {
      const raw = form.elements.value.value;
      const value = type === "BOOLEAN" ? raw === "true"
          : form.elements.value.type === "number" ? Number(raw) : raw;
      const result = await api.post(`/api/v1/tags/${pathParam(tag.path)}/write`, { value });
      message.className = "status-line " + (result.accepted ? "ok" : "error");
      message.textContent = result.accepted
          ? `Written: the device accepted ${f.value(value)} (${result.status}).`
          : `The device refused: ${result.status}${result.message ? " — " + result.message : ""}`;
      return result;
    },
  });
}
