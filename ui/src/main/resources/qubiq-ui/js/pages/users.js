// Users (Manage users): every local user with roles and state; create, change roles, disable or
// enable, set a new password, delete (after a confirmation).
import { api, pathParam } from "../api.js";
import { h, clear, loading, empty, failure, table, say, statusLine } from "../dom.js";
import { confirmDialog, formDialog, field } from "../dialogs.js";
import * as f from "../format.js";

export async function render(root, _params, ctx) {
  const holder = h("div", { id: "users-list" }, loading());
  const message = statusLine("users-message");
  const create = h("button", { type: "button", class: "primary", id: "user-create" }, "New user…");
  clear(root, h("h2", {}, "Users"),
      h("div", { class: "toolbar" }, h("span", { class: "hint" }, "Local users and their roles. "
          + "Your own password and API tokens are under ", h("a", { href: "#/account" }, "Account"), "."),
      h("span", { class: "spacer" }), create),
      message, holder);

  let roles = [];
  async function load() {
    try {
      const [users, roleList] = await Promise.all([api.get("/api/v1/users"), api.get("/api/v1/roles")]);
      roles = (Array.isArray(roleList) ? roleList : roleList.roles || []).map((r) => (typeof r === "string" ? { name: r } : r));
      show(Array.isArray(users) ? users : users.users || []);
    } catch (e) {
      clear(holder, failure(e, load));
    }
  }

  const done = (text) => {
    say(message, text, "ok");
    load();
  };

  function show(users) {
    if (users.length === 0) {
      clear(holder, empty("No users."));
      return;
    }
    const { element, body } = table(["User", "Roles", "State", "Created", "Password changed", ""], { "data-test": "users-table" });
    for (const u of users) {
      const self = u.name === ctx.session.user;
      body.append(h("tr", { "data-test": "user-row", "data-name": u.name },
          h("th", { scope: "row" }, u.name, self ? h("span", { class: "sub" }, " (you)") : null),
          h("td", {}, (u.roles || []).join(", ") || "–"),
          h("td", {}, u.disabled ? h("span", { class: "pill warn" }, "disabled") : h("span", { class: "pill ok" }, "active")),
          h("td", {}, f.time(u.created)),
          h("td", {}, f.time(u.passwordChanged)),
          h("td", { class: "actions" },
              h("button", { type: "button", id: "user-roles-" + u.name, onclick: () => editRoles(u) }, "Roles…"),
              h("button", { type: "button", id: "user-password-" + u.name, onclick: () => setPassword(u) }, "Password…"),
              h("button", { type: "button", id: "user-toggle-" + u.name, disabled: self, onclick: () => toggle(u) },
                  u.disabled ? "Enable" : "Disable"),
              h("button", { type: "button", class: "danger", id: "user-delete-" + u.name, disabled: self,
                onclick: () => remove(u) }, "Delete"))));
    }
    clear(holder, element);
  }

  function roleBoxes(fields, checked) {
    fields.append(h("fieldset", { class: "roles" }, h("legend", {}, "Roles"), roles.map((r) =>
        h("label", { class: "choice" }, h("input", { type: "checkbox", name: "role", value: r.name, checked: checked.includes(r.name) }),
            " ", r.name, r.permissions ? h("span", { class: "sub" }, " ", r.permissions.map((p) => String(p).toLowerCase()).join(", ")) : null))));
  }
  const chosenRoles = (form) => [...form.querySelectorAll("input[name=role]:checked")].map((box) => box.value);

  create.addEventListener("click", async () => {
    const created = await formDialog({
      id: "user-dialog", title: "New user", submitLabel: "Create",
      build(fields) {
        fields.append(field("User name", { name: "name", id: "new-user-name", required: true, autocomplete: "off" }),
            field("Password", { name: "password", id: "new-user-password", type: "password", required: true, autocomplete: "new-password" }));
        roleBoxes(fields, ["viewer"]);
      },
      onSubmit: (form) => api.post("/api/v1/users", { name: form.elements.name.value.trim(),
        password: form.elements.password.value, roles: chosenRoles(form) }),
    });
    if (created) done(`User ${created.name || "created"} created.`);
  });

  async function editRoles(u) {
    const changed = await formDialog({
      id: "roles-dialog", title: "Roles of " + u.name,
      build: (fields) => roleBoxes(fields, u.roles || []),
      onSubmit: (form) => api.put(`/api/v1/users/${pathParam(u.name)}`, { roles: chosenRoles(form) }).then((r) => r || {}),
    });
    if (changed) done(`Roles of ${u.name} changed.`);
  }

  async function setPassword(u) {
    const changed = await formDialog({
      id: "password-dialog", title: "New password for " + u.name,
      build: (fields) => fields.append(field("New password", { name: "password", type: "password", required: true, autocomplete: "new-password" })),
      onSubmit: (form) => api.put(`/api/v1/users/${pathParam(u.name)}`, { password: form.elements.password.value }).then((r) => r || {}),
    });
    if (changed) done(`Password of ${u.name} set.`);
  }

  async function toggle(u) {
    try {
      await api.put(`/api/v1/users/${pathParam(u.name)}`, { disabled: !u.disabled });
      done(`${u.name} ${u.disabled ? "enabled" : "disabled"}.`);
    } catch (e) {
      say(message, e.message, "error");
    }
  }

  async function remove(u) {
    const ok = await confirmDialog({ title: "Delete user?", message: `Delete ${u.name}? Their sessions and API tokens end.`,
      confirmLabel: "Delete " + u.name, danger: true });
    if (!ok) return;
    try {
      await api.del(`/api/v1/users/${pathParam(u.name)}`);
      done(`${u.name} deleted.`);
    } catch (e) {
      say(message, e.message, "error");
    }
  }

  await load();
  return undefined;
}
