// A device's address space as a tree that loads each level when it is opened (GET .../browse?node=).
// With Edit connections, an OPC UA connection's variables have checkboxes, and "Add as tags" turns
// the ticked ones into tags of the connection (browse-tags.js).
import { api, pathParam } from "../api.js";
import { h, clear, loading, empty, failure } from "../dom.js";
import { addAsTags } from "./browse-tags.js";

/**
 * The panel; {@code options.editable} adds the checkboxes and the button, {@code options.onTagsAdded}
 * is told the PUT's answer after tags were added.
 */
export function browseTree(device, options = {}) {
  const editable = Boolean(options.editable) && device.type === "opcua";
  const picked = new Map(); // nodeId -> {nodeId, browseName, displayName, parent}
  const root = h("ul", { class: "tree", role: "tree", "aria-label": "Address space of " + device.id, id: "browse-tree" });
  const count = h("span", { id: "browse-picked", class: "sub", role: "status" });
  const add = editable ? h("button", { type: "button", id: "browse-add-tags", class: "primary", disabled: true,
    onclick: async () => {
      const written = await addAsTags(device, [...picked.values()]).catch((e) => {
        result.className = "status-line error";
        result.textContent = e.message;
        return null;
      });
      if (!written) return;
      result.className = "status-line ok";
      result.textContent = `Added ${picked.size} tag(s) as revision ${short(written.revision)}; `
          + (written.applied.length ? "applied live: " + written.applied.join(", ") : "")
          + (written.needRestart.length ? " waits for a restart: " + written.needRestart.join(", ") : "");
      for (const box of root.querySelectorAll("input[type=checkbox]:checked")) box.checked = false;
      picked.clear();
      update();
      if (options.onTagsAdded) options.onTagsAdded(written);
    } }, "Add as tags") : null;
  const result = h("p", { class: "status-line", id: "browse-result", role: "status", "aria-live": "polite" });
  const update = () => {
    count.textContent = picked.size ? ` ${picked.size} selected` : "";
    if (add) add.disabled = picked.size === 0;
  };
  const panel = h("div", { class: "card" },
      h("h3", { tabindex: "-1" }, "Browse ", device.id),
      h("p", { class: "hint" }, "Open a node to load its children. Variables show their data type and node id, "
          + "which is what a tag's configuration needs." + (editable ? " Tick variables to add them as tags." : "")),
      editable ? h("div", { class: "buttons" }, add, count) : null,
      result,
      root);
  const context = { device, editable, picked, update };
  level(context, "", "", root);
  return panel;
}

function short(revision) {
  return String(revision || "").replace(/^sha256:/, "").slice(0, 12);
}

async function level(context, node, parentName, list) {
  const { device } = context;
  clear(list, h("li", {}, loading()));
  let children;
  try {
    children = await api.get(`/api/v1/connections/${pathParam(device.id)}/browse` + (node ? "?node=" + encodeURIComponent(node) : ""));
  } catch (e) {
    clear(list, h("li", {}, failure(e, () => level(context, node, parentName, list))));
    return;
  }
  if (children.length === 0) {
    clear(list, h("li", {}, empty("No children.")));
    return;
  }
  clear(list, children.map((child) => item(context, child, parentName)));
}

function item(context, child, parentName) {
  const label = [child.displayName || child.browseName, h("span", { class: "sub" }, ` ${child.nodeClass || ""}`,
      child.dataType ? ` · ${child.dataType}` : "", ` · ${child.nodeId}`)];
  if (child.nodeClass === "Variable") {
    if (!context.editable) {
      return h("li", { role: "treeitem", "data-node": child.nodeId }, label);
    }
    const box = h("input", { type: "checkbox", "data-node": child.nodeId, "aria-label": "Select " + (child.displayName || child.browseName) });
    box.checked = context.picked.has(child.nodeId);
    box.addEventListener("change", () => {
      if (box.checked) {
        context.picked.set(child.nodeId, { nodeId: child.nodeId, browseName: child.browseName,
          displayName: child.displayName, parent: parentName });
      } else {
        context.picked.delete(child.nodeId);
      }
      context.update();
    });
    return h("li", { role: "treeitem", "data-node": child.nodeId }, h("label", { class: "tree-pick" }, box, " ", label));
  }
  const nested = h("ul", { role: "group", hidden: true });
  const toggle = h("button", { type: "button", class: "tree-toggle", "aria-expanded": "false", "data-node": child.nodeId }, label);
  let loaded = false;
  toggle.addEventListener("click", () => {
    const open = toggle.getAttribute("aria-expanded") === "true";
    toggle.setAttribute("aria-expanded", String(!open));
    nested.hidden = open;
    if (!open && !loaded) {
      loaded = true;
      level(context, child.nodeId, child.browseName, nested);
    }
  });
  return h("li", { role: "treeitem" }, toggle, nested);
}
