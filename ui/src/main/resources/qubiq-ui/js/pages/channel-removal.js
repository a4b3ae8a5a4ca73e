// Removing an outbound connection from Settings → Store & Forward (Edit connections). The dialog says what
// the removal costs: the connection leaves the configuration file and stops now, with no restart; when its
// channel holds buffered or quarantined items the operator chooses what happens to them (onRemove): drain
// them first (the connection runs on until its buffer and quarantine are empty, then goes), keep them as an
// orphan (listed on this page at once, to attach to another connection or discard later) or discard them
// now (each recorded in the loss ledger). Nothing is sent
// before a choice is made. A 409 because items arrived meanwhile asks again; a 422 (a pipeline still writes
// to the connection) lists every problem; the dialog then stays open.
import { request } from "../api.js";
import { h } from "../dom.js";
import { formDialog } from "../dialogs.js";
import { readChannelSettings } from "./channel-settings.js";

const CHOICES = [
  { value: "drain", label: "Deliver them first: the connection runs on until its buffer and quarantine are empty, then goes" },
  { value: "keep_orphan", label: "Keep its data as an orphan (attach it to another connection or discard it later)" },
  { value: "discard", label: "Discard its data now (every item recorded in the loss ledger)" },
];

/** Resolves with the DELETE's answer once written, or null when cancelled. */
export async function removeOutbound(connection, held) {
  const read = await readChannelSettings();
  const items = (held?.bufferedItems || 0) + (held?.quarantineItems || 0);
  let mustChoose = items > 0;
  let choices = null;
  const key = `outbound.${/^[A-Za-z0-9_-]+$/.test(connection) ? connection : JSON.stringify(connection)}`;

  function choiceBlock() {
    return h("fieldset", { id: "rm-choice", "data-test": "rm-choice" },
        h("legend", {}, `Its channel holds ${held?.bufferedItems || 0} buffered and ${held?.quarantineItems || 0} `
            + "quarantined items. What happens to them?"),
        CHOICES.map((c) => h("label", { class: "inline choice" },
            h("input", { type: "radio", name: "onRemove", value: c.value, id: "rm-" + c.value }), " ", c.label)));
  }

  return formDialog({
    id: "channel-removal",
    title: `Remove outbound connection ${connection}?`,
    submitLabel: "Remove",
    build(fields) {
      fields.append(
          h("p", {}, `${connection} is removed from the configuration file (the earlier revision is kept) and its `
              + "channel stops now, without a restart; pipelines that write to it must be changed first."),
          choices = mustChoose ? choiceBlock() : h("div", { id: "rm-choice-holder" }),
          h("label", { class: "field" }, h("span", {}, "Comment"),
              h("input", { type: "text", id: "rm-comment", maxlength: 500, placeholder: "why (kept with the revision)" })));
    },
    async onSubmit(form) {
      const picked = form.querySelector("input[name=onRemove]:checked");
      if (mustChoose && !picked) throw new Error("Choose what happens to the connection's data first.");
      const body = { revision: read.fileRevision, comment: form.querySelector("#rm-comment").value || `removed ${connection}`,
        source: "console" };
      if (picked) body.onRemove = picked.value;
      try {
        return await request("DELETE", "/api/v1/config/" + encodeURIComponent(key), body);
      } catch (e) {
        if (e.status === 409 && e.body && e.body.field === "onRemove" && !mustChoose) {
          mustChoose = true; // items arrived since the page read the channel: ask now
          const fresh = choiceBlock();
          choices.replaceWith(fresh);
          choices = fresh;
          throw new Error("The channel holds data now: choose what happens to it, then Remove again.");
        }
        if (e.status === 409) {
          throw new Error("The configuration file changed since this dialog opened: close it and try again.");
        }
        const problems = e.body && Array.isArray(e.body.problems) ? e.body.problems : [];
        throw problems.length ? new Error(problems.map((p) => `${p.key}: ${p.message}`).join("; ")) : e;
      }
    },
  });
}
