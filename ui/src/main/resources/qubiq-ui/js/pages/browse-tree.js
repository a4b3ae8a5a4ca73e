// A device's address space as a tree that loads each level when it is opened (GET .../browse?node=).
import { api, pathParam } from "../api.js";
import { h, clear, loading, empty, failure } from "../dom.js";

export function browseTree(device) {
  const root = h("ul", { class: "tree", role: "tree", "aria-label": "Address space of " + device.id, id: "browse-tree" });
  const panel = h("div", { class: "card" },
      h("h3", { tabindex: "-1" }, "Browse ", device.id),
      h("p", { class: "hint" }, "Open a node to load its children. Variables show their data type and node id, "
          + "which is what a tag's configuration needs."),
      root);
  level(device, "", root);
  return panel;
}

async function level(device, node, list) {
  clear(list, h("li", {}, loading()));
  let children;
  try {
    children = await api.get(`/api/v1/connections/${pathParam(device.id)}/browse` + (node ? "?node=" + encodeURIComponent(node) : ""));
  } catch (e) {
    clear(list, h("li", {}, failure(e, () => level(device, node, list))));
    return;
  }
  if (children.length === 0) {
    clear(list, h("li", {}, empty("No children.")));
    return;
  }
  clear(list, children.map((child) => item(device, child)));
}

function item(device, child) {
  const label = [child.displayName || child.browseName, h("span", { class: "sub" }, ` ${child.nodeClass || ""}`,
      child.dataType ? ` · ${child.dataType}` : "", ` · ${child.nodeId}`)];
  if (child.nodeClass === "Variable") {
    return h("li", { role: "treeitem", "data-node": child.nodeId }, label);
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
      level(device, child.nodeId, nested);
    }
  });
  return h("li", { role: "treeitem" }, toggle, nested);
}
