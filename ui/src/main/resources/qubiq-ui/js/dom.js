// Small DOM helpers: an element builder and the loading / empty / error states every page shows.

/**
 * h("button", {class: "primary", onclick: fn, "data-test": "x"}, "Label"): attributes with
 * false/null/undefined are left out, true becomes an empty attribute, on* become listeners.
 */
export function h(tag, attrs = {}, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      element.addEventListener(key.slice(2), value);
    } else if (key === "class") {
      element.className = value;
    } else if (key === "value") {
      element.value = value;
    } else {
      element.setAttribute(key, value === true ? "" : String(value));
    }
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : String(child));
  }
}

export function clear(element, ...children) {
  element.replaceChildren();
  append(element, children);
  return element;
}

export function loading(text = "Loading…") {
  return h("p", { class: "state loading", "data-test": "loading", role: "status" }, text);
}

export function empty(text) {
  return h("p", { class: "state empty", "data-test": "empty" }, text);
}

/** An error box with the server's sentence and, when given, a Retry button. */
export function failure(error, retry) {
  return h("div", { class: "state failure", role: "alert", "data-test": "error" },
      h("span", {}, error && error.message ? error.message : String(error)),
      retry ? h("button", { type: "button", onclick: retry }, "Retry") : null);
}

/** A message line that replaces its text and announces it politely. */
export function statusLine(id) {
  return h("p", { id, class: "status-line", role: "status", "aria-live": "polite" });
}

export function say(line, text, kind = "info") {
  line.textContent = text;
  line.className = "status-line " + kind;
}

/** A table with a header row; rows go into the returned tbody. */
export function table(headers, attrs = {}) {
  const body = h("tbody");
  const element = h("table", attrs,
      h("thead", {}, h("tr", {}, headers.map((label) => h("th", { scope: "col" }, label)))), body);
  return { element, body };
}

/** Runs a re-render and gives focus back to the element with the same id, so live updates keep keyboard users' place. */
export function keepingFocus(render) {
  const active = document.activeElement;
  const id = active && active !== document.body ? active.id : "";
  render();
  if (id && document.activeElement !== active) {
    const again = document.getElementById(id);
    if (again) again.focus({ preventScroll: true });
  }
}
