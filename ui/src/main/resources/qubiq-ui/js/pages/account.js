// Account: change your own password, and your API tokens for automation (Authorization: Bearer).
// A new token is shown once, right after it is created.
import { api, pathParam } from "../api.js";
import { h, clear, loading, empty, failure, table, say, statusLine } from "../dom.js";
import { confirmDialog } from "../dialogs.js";
import * as f from "../format.js";

export async function render(root, _params, ctx) {
  const current = h("input", { type: "password", id: "pw-current", autocomplete: "current-password", required: true });
  const next = h("input", { type: "password", id: "pw-new", autocomplete: "new-password", required: true });
  const repeat = h("input", { type: "password", id: "pw-repeat", autocomplete: "new-password", required: true });
  const pwMessage = statusLine("pw-message");
  const pwForm = h("form", { class: "card narrow", id: "password-form" },
      h("h3", {}, "Change your password"),
      // tells password managers whose password this is
      h("input", { type: "text", name: "username", autocomplete: "username", value: ctx.session.user, hidden: true, readonly: true }),
      h("label", { class: "field", for: "pw-current" }, h("span", {}, "Current password"), current),
      h("label", { class: "field", for: "pw-new" }, h("span", {}, "New password"), next),
      h("label", { class: "field", for: "pw-repeat" }, h("span", {}, "Repeat the new password"), repeat),
      pwMessage,
      h("div", { class: "buttons" }, h("button", { type: "submit", class: "primary", id: "pw-submit" }, "Change password")));
  pwForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (next.value !== repeat.value) {
      say(pwMessage, "The two new passwords differ.", "error");
      return;
    }
    try {
      await api.post("/api/v1/session/password", { current: current.value, password: next.value });
      pwForm.reset();
      say(pwMessage, "Your password is changed.", "ok");
    } catch (e) {
      say(pwMessage, e.message, "error");
    }
  });

  const tokenName = h("input", { id: "token-name", required: true, placeholder: "e.g. grafana" });
  const tokenMessage = h("div", { id: "token-created", role: "status", "aria-live": "polite" });
  const tokens = h("div", { id: "tokens-list" }, loading());
  const tokenForm = h("form", { class: "toolbar", id: "token-form" },
      h("label", { class: "inline", for: "token-name" }, "Name ", tokenName),
      h("button", { type: "submit", class: "primary", id: "token-create" }, "Create token"));

  clear(root, h("h2", {}, "Account: ", ctx.session.user),
      h("p", { class: "hint" }, "Roles: ", (ctx.session.roles || []).join(", ") || "none",
          ". Permissions: ", (ctx.session.permissions || []).join(", ") || "none", "."),
      pwForm,
      h("section", { class: "card" }, h("h3", {}, "API tokens"),
          h("p", { class: "hint" }, "For scripts and other systems: send ", h("code", {}, "Authorization: Bearer <token>"),
              ". A token acts with your permissions."),
          tokenForm, tokenMessage, tokens));

  async function load() {
    try {
      const list = await api.get("/api/v1/tokens");
      show(Array.isArray(list) ? list : list.tokens || []);
    } catch (e) {
      clear(tokens, failure(e, load));
    }
  }

  function show(list) {
    if (list.length === 0) {
      clear(tokens, empty("You have no API tokens."));
      return;
    }
    const { element, body } = table(["Name", "Created", "Last used", "Expires", ""], { "data-test": "tokens-table" });
    for (const t of list) {
      body.append(h("tr", { "data-test": "token-row" },
          h("td", {}, t.name), h("td", {}, f.time(t.created)), h("td", {}, f.time(t.lastUsed)),
          h("td", {}, t.expires ? f.time(t.expires) : "never"),
          h("td", {}, h("button", { type: "button", class: "danger", id: "token-delete-" + t.id, onclick: async () => {
            if (!await confirmDialog({ title: "Revoke token?", message: `Revoke the token ${t.name}? Whatever uses it loses access.`,
              confirmLabel: "Revoke", danger: true })) return;
            try {
              await api.del(`/api/v1/tokens/${pathParam(t.id)}`);
              clear(tokenMessage);
            } catch (e) {
              clear(tokenMessage, failure(e));
            }
            load();
          } }, "Revoke"))));
    }
    clear(tokens, element);
  }

  tokenForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const created = await api.post("/api/v1/tokens", { name: tokenName.value.trim() });
      tokenForm.reset();
      const value = h("input", { readonly: true, id: "token-value", value: created.token, size: 60, class: "mono",
        "aria-label": "The new token" });
      clear(tokenMessage, h("div", { class: "result ok" },
          h("p", {}, h("strong", {}, `Token ${created.name} created.`), " Copy it now: it is not shown again."),
          value, " ",
          h("button", { type: "button", onclick: async () => {
            value.select();
            try {
              await navigator.clipboard.writeText(created.token);
            } catch {
              // no clipboard access (plain HTTP): the text stays selected for Ctrl+C
            }
          } }, "Copy")));
      value.select();
    } catch (e) {
      clear(tokenMessage, failure(e));
    }
    load();
  });

  await load();
  return undefined;
}
