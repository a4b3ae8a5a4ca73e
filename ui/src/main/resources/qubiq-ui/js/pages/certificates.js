// An OPC UA connection's server certificates: rejected ones wait for an operator with Edit
// connections to trust them; the connection then uses the certificate on its next attempt.
import { api, pathParam } from "../api.js";
import { h, clear, loading, empty, failure, table, say, statusLine } from "../dom.js";
import * as f from "../format.js";

export function certificatePanel(device, ctx) {
  const holder = h("div", {}, loading());
  const message = statusLine("cert-message");
  const panel = h("div", { class: "card", id: "certificates" },
      h("h3", { tabindex: "-1" }, "Server certificates of ", device.id), message, holder);
  load(device, ctx, holder, message);
  return panel;
}

async function load(device, ctx, holder, message) {
  let answer;
  try {
    answer = await api.get(`/api/v1/connections/${pathParam(device.id)}/certificates`);
  } catch (e) {
    clear(holder, e.status === 409 ? empty(e.message) : failure(e, () => load(device, ctx, holder, message)));
    return;
  }
  if (answer.certificates.length === 0) {
    clear(holder, empty(`No server certificates in ${answer.directory} yet.`));
    return;
  }
  const canTrust = ctx.can("edit_connections");
  const { element, body } = table(["Subject", "Issuer", "Valid", "Thumbprint", "Folder", ""], { "data-test": "cert-table" });
  for (const c of answer.certificates) {
    const trust = c.folder === "rejected"
        ? h("button", { type: "button", class: "primary", id: "trust-" + c.thumbprint, disabled: !canTrust,
          title: canTrust ? null : "Needs the Edit connections permission" }, "Trust")
        : null;
    if (trust && canTrust) {
      trust.addEventListener("click", async () => {
        trust.disabled = true;
        try {
          const done = await api.post(`/api/v1/connections/${pathParam(device.id)}/certificates/${c.thumbprint}/trust`);
          say(message, done.message, "ok");
        } catch (e) {
          say(message, e.message, "error");
        }
        load(device, ctx, holder, message);
      });
    }
    body.append(h("tr", { "data-test": "cert-row" },
        h("td", {}, c.subject), h("td", {}, c.issuer),
        h("td", {}, f.time(c.notBefore), " – ", f.time(c.notAfter)),
        h("td", { class: "mono" }, c.thumbprint),
        h("td", {}, h("span", { class: "pill " + (c.folder === "rejected" ? "warn" : "ok") }, c.folder)),
        h("td", {}, trust)));
  }
  clear(holder, element);
}
