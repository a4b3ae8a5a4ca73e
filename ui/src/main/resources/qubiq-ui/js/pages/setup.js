// First start: no user exists yet. The gateway printed a one-time setup token in its log; with it
// the first administrator is created here, then signs in normally.
import { api } from "../api.js";
import { h, clear } from "../dom.js";

export function renderSetup(root, { onDone }) {
  document.title = "First start — Qubiq";
  const token = h("input", { id: "setup-token", name: "token", autocomplete: "off", required: true, spellcheck: "false" });
  const user = h("input", { id: "setup-user", name: "user", value: "admin", autocomplete: "username", required: true });
  const password = h("input", { id: "setup-password", name: "password", type: "password", autocomplete: "new-password", required: true });
  const repeat = h("input", { id: "setup-repeat", name: "repeat", type: "password", autocomplete: "new-password", required: true });
  const submit = h("button", { type: "submit", id: "setup-submit", class: "primary" }, "Create administrator");
  const error = h("p", { id: "setup-error", class: "status-line error", role: "alert" });

  const form = h("form", { id: "setup-form", class: "card narrow", "aria-labelledby": "setup-title" },
      h("h2", { id: "setup-title" }, "First start: create the administrator"),
      h("p", {}, "The gateway printed a one-time setup token in its log when it started. "
          + "Enter it with the name and password of the first administrator."),
      h("label", { class: "field", for: "setup-token" }, h("span", {}, "Setup token"), token),
      h("label", { class: "field", for: "setup-user" }, h("span", {}, "Administrator name"), user),
      h("label", { class: "field", for: "setup-password" }, h("span", {}, "Password"), password),
      h("label", { class: "field", for: "setup-repeat" }, h("span", {}, "Repeat password"), repeat),
      error,
      h("div", { class: "buttons" }, submit));

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (password.value !== repeat.value) {
      error.textContent = "The two passwords differ.";
      repeat.focus();
      return;
    }
    submit.disabled = true;
    error.textContent = "";
    try {
      await api.post("/api/v1/setup", { token: token.value.trim(), user: user.value.trim(), password: password.value },
          { handle401: true });
      onDone();
    } catch (e) {
      if (e.status === 409) {
        onDone("Setup is done already: sign in.");
        return;
      }
      error.textContent = e.message;
      submit.disabled = false;
    }
  });

  clear(root, form);
  token.focus();
}
