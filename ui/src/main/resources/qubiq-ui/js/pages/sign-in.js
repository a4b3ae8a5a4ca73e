// Sign-in: user name and password. A wrong password shows the server's sentence; too many
// attempts (429) show how long to wait and keep the button disabled until then.
import { api } from "../api.js";
import { h, clear } from "../dom.js";

export function renderSignIn(root, { message, onSignedIn }) {
  const user = h("input", { id: "signin-user", name: "user", autocomplete: "username", required: true });
  const password = h("input", { id: "signin-password", name: "password", type: "password",
    autocomplete: "current-password", required: true });
  const submit = h("button", { type: "submit", id: "signin-submit", class: "primary" }, "Sign in");
  const error = h("p", { id: "signin-error", class: "status-line error", role: "alert" });
  const note = h("p", { id: "signin-message", class: "status-line", role: "status" }, message || "");
  let countdown = null;

  function wait(secondsLeft, text) {
    submit.disabled = true;
    error.textContent = text;
    clearInterval(countdown);
    countdown = setInterval(() => {
      secondsLeft--;
      if (secondsLeft <= 0 || !submit.isConnected) {
        clearInterval(countdown);
        submit.disabled = false;
        error.textContent = "You may try again now.";
        return;
      }
      error.textContent = `Too many sign-in attempts. Try again in ${secondsLeft} s.`;
    }, 1000);
  }

  const form = h("form", { id: "signin-form", class: "card narrow", "aria-labelledby": "signin-title" },
      h("h2", { id: "signin-title" }, "Sign in"),
      note,
      h("label", { class: "field", for: "signin-user" }, h("span", {}, "User name"), user),
      h("label", { class: "field", for: "signin-password" }, h("span", {}, "Password"), password),
      error,
      h("div", { class: "buttons" }, submit));

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    submit.disabled = true;
    try {
      const session = await api.post("/api/v1/session", { user: user.value.trim(), password: password.value },
          { handle401: true });
      onSignedIn(session);
    } catch (e) {
      password.value = "";
      if (e.status === 429) {
        const secondsLeft = Math.max(1, Math.ceil(e.retryAfterSeconds || 1));
        wait(secondsLeft, e.message || `Too many sign-in attempts. Try again in ${secondsLeft} s.`);
        return;
      }
      error.textContent = e.message;
      submit.disabled = false;
      password.focus();
    }
  });

  clear(root, form);
  user.focus();
}
