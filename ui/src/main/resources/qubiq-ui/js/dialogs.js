// Modal dialogs on <dialog>: showModal() traps focus, Escape cancels, and the browser tests can
// drive them like any other element (unlike window.confirm).
import { h } from "./dom.js";

/** Resolves true when the user confirms, false on Cancel or Escape. */
export function confirmDialog({ title, message, confirmLabel = "OK", danger = false }) {
  return new Promise((resolve) => {
    const dialog = h("dialog", { id: "confirm-dialog", "aria-labelledby": "confirm-title" },
        h("form", { method: "dialog" },
            h("h2", { id: "confirm-title" }, title),
            h("p", { id: "confirm-message" }, message),
            h("div", { class: "buttons" },
                h("button", { type: "submit", value: "cancel", id: "confirm-cancel" }, "Cancel"),
                h("button", { type: "submit", value: "ok", id: "confirm-ok", class: danger ? "danger" : "primary" },
                    confirmLabel))));
    dialog.addEventListener("close", () => {
      resolve(dialog.returnValue === "ok");
      dialog.remove();
    });
    document.body.append(dialog);
    dialog.showModal();
    dialog.querySelector("#confirm-cancel").focus();
  });
}

/**
 * A dialog around a form. build(form, close) fills the form; onSubmit(form) runs on submit and
 * may throw to keep the dialog open (its message is shown in the dialog). Resolves with
 * onSubmit's result, or null when cancelled.
 */
export function formDialog({ id, title, submitLabel = "Save", build, onSubmit, keepOpen = false }) {
  return new Promise((resolve) => {
    const message = h("p", { class: "status-line", role: "status", "aria-live": "polite", "data-test": "dialog-message" });
    const fields = h("div", { class: "fields" });
    const submit = h("button", { type: "submit", class: "primary", "data-test": "dialog-submit" }, submitLabel);
    const cancel = h("button", { type: "button", "data-test": "dialog-cancel" }, keepOpen ? "Close" : "Cancel");
    const form = h("form", {}, h("h2", { id: id + "-title" }, title), fields, message, h("div", { class: "buttons" }, cancel, submit));
    const dialog = h("dialog", { id, "aria-labelledby": id + "-title" }, form);
    let result = null;
    cancel.addEventListener("click", () => dialog.close());
    dialog.addEventListener("close", () => {
      resolve(result);
      dialog.remove();
    });
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      submit.disabled = true;
      message.className = "status-line";
      message.textContent = "Working…";
      try {
        result = await onSubmit(form, message);
        if (keepOpen) {
          submit.disabled = false;
        } else {
          dialog.close();
        }
      } catch (e) {
        message.className = "status-line error";
        message.textContent = e.message;
        submit.disabled = false;
      }
    });
    build(fields);
    document.body.append(dialog);
    dialog.showModal();
    const first = fields.querySelector("input, select, textarea");
    if (first) first.focus();
  });
}

/** A labelled input: field("Password", {type: "password", name: "password", id: "x"}). */
export function field(label, attrs) {
  return h("label", { class: "field" }, h("span", {}, label), h(attrs.rows ? "textarea" : "input", attrs));
}
