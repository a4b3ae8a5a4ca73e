// Audit: the journal of operator actions, newest first, filtered by time, user, action, outcome
// and free text; "Older" pages on with the answer's "next".
import { api } from "../api.js";
import { h, clear, loading, empty, failure, table } from "../dom.js";
import * as f from "../format.js";

const LIMIT = 100;
const FILTERS = [["user", "User"], ["action", "Action"], ["outcome", "Outcome"], ["text", "Text"]];

export async function render(root) {
  const inputs = {
    from: h("input", { type: "datetime-local", id: "audit-from", name: "from" }),
    to: h("input", { type: "datetime-local", id: "audit-to", name: "to" }),
  };
  for (const [name] of FILTERS) inputs[name] = h("input", { id: "audit-" + name, name, type: name === "text" ? "search" : "text", size: 12 });
  const form = h("form", { class: "toolbar wrap", id: "audit-filter" },
      h("label", { class: "inline", for: "audit-from" }, "From ", inputs.from),
      h("label", { class: "inline", for: "audit-to" }, "To ", inputs.to),
      FILTERS.map(([name, label]) => h("label", { class: "inline", for: "audit-" + name }, label + " ", inputs[name])),
      h("button", { type: "submit", class: "primary", id: "audit-apply" }, "Apply"),
      h("button", { type: "reset", id: "audit-reset" }, "Clear"));
  const holder = h("div", { id: "audit-list" }, loading());
  const pager = h("div", { class: "pager" });
  clear(root, h("h2", {}, "Audit"),
      h("p", { class: "hint" }, "Every operator action: sign-ins, quarantine retries and drops, tag writes, "
          + "certificate trusts, user changes. Newest first."),
      form, holder, pager);

  const pages = [];
  let before = null;

  async function load() {
    const params = new URLSearchParams({ limit: String(LIMIT) });
    for (const name of ["from", "to"]) {
      if (inputs[name].value) params.set(name, new Date(inputs[name].value).toISOString());
    }
    for (const [name] of FILTERS) if (inputs[name].value.trim()) params.set(name, inputs[name].value.trim());
    if (before !== null) params.set("before", String(before));
    clear(holder, loading());
    let page;
    try {
      page = await api.get("/api/v1/audit?" + params);
    } catch (e) {
      clear(holder, failure(e, load));
      return;
    }
    show(page);
  }

  function show(page) {
    if (page.entries.length === 0) {
      clear(holder, empty(pages.length ? "No older entries." : "No audit entries match the filter."));
    } else {
      const { element, body } = table(["Time", "User", "From", "Action", "Target", "Outcome", "Details"],
          { "data-test": "audit-table", class: "audit" });
      for (const e of page.entries) {
        body.append(h("tr", { "data-test": "audit-row", "data-seq": e.seq, "data-action": e.action, "data-user": e.user },
            h("td", { class: "nowrap" }, f.time(e.at)),
            h("td", {}, e.user),
            h("td", {}, e.from || "gateway"),
            h("td", { class: "mono" }, e.action),
            h("td", { class: "mono" }, e.target),
            h("td", {}, e.outcome),
            h("td", {}, details(e.details))));
      }
      clear(holder, element);
    }
    clear(pager,
        h("button", { type: "button", id: "audit-newer", disabled: pages.length === 0, onclick: () => {
          before = pages.pop();
          load();
        } }, "Newer"),
        h("button", { type: "button", id: "audit-older", disabled: page.next === null || page.next === undefined,
          onclick: () => {
            pages.push(before);
            before = page.next;
            load();
          } }, "Older"));
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    pages.length = 0;
    before = null;
    load();
  });
  form.addEventListener("reset", () => setTimeout(() => form.requestSubmit(), 0));
  await load();
  return undefined;
}

function details(map) {
  const entries = Object.entries(map || {});
  if (entries.length === 0) return "";
  return h("dl", { class: "details" }, entries.map(([key, value]) => [h("dt", {}, key), h("dd", {}, String(value))]));
}
