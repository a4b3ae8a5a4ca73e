// Settings → Configuration: the revisions of the configuration file, newest first (who, when, source,
// comment), and the selected one's lines against its parent as a unified diff. With Manage configuration:
// "Roll back to this revision" (the confirmation shows the file's lines from now to that revision, asked
// with GET .../rollback, and takes a comment), "Export" (the file as a download), "Import" (a picked file
// is validated first: its problems with their key paths, or the keys it changes and what restarts; only
// Apply writes it, on the revision read when it was picked) and "Reload from disk". Every written answer
// says what was applied live and what waits for a restart; a refusal (409 stale, 422 invalid) is shown
// and changes nothing. A banner names what waits for a restart. Viewers see the history and no actions.
import { api } from "../api.js";
import { h, clear, loading, empty, failure, table } from "../dom.js";
import { formDialog } from "../dialogs.js";
import * as f from "../format.js";

const SOURCE_TEXT = { api: "API", console: "console", rollback: "rollback", file: "file on disk", import: "import" };

export async function render(root, params, ctx) {
  const canManage = ctx.can("manage_configuration");
  const pending = h("div", { id: "cfg-pending" });
  const outcome = h("div", { id: "cfg-outcome", "data-test": "cfg-outcome", role: "status", "aria-live": "polite" });
  const importPanel = h("div", { id: "cfg-import" });
  const list = h("div", { id: "cfg-revisions" }, loading());
  const detail = h("div", { id: "cfg-detail", class: "card" });
  const state = { revisions: [], selected: null, fileRevision: null, generation: 0 };

  const fileInput = h("input", { type: "file", id: "cfg-import-file", accept: ".yaml,.yml,text/yaml,application/yaml",
    "aria-describedby": "cfg-import-hint" });
  fileInput.addEventListener("change", () => pickImport());
  clear(root,
      h("h2", {}, h("span", { class: "crumb" }, "Settings → "), "Configuration"),
      h("p", { class: "hint" }, "Every change to the configuration file is kept as a revision: by the console, "
          + "the API, an import, a rollback or a hand edit reloaded from disk. Select one to see what it changed."),
      pending,
      canManage ? h("div", { class: "toolbar wrap", "data-test": "cfg-actions" },
          h("button", { type: "button", id: "cfg-export", onclick: () => exportFile() }, "Export"),
          h("label", { class: "inline", for: "cfg-import-file" }, "Import ", fileInput),
          h("button", { type: "button", id: "cfg-reload", onclick: () => reload() }, "Reload from disk"),
          h("span", { class: "sub", id: "cfg-import-hint" }, "An imported file is checked first and written only "
              + "after Apply.")) : null,
      outcome, importPanel,
      h("div", { class: "config-history" }, list, detail));

  /** The running configuration's side: the file revision to change on, and what waits for a restart. */
  async function readConfig() {
    try {
      const running = await api.get("/api/v1/config");
      state.fileRevision = running.fileRevision;
      const waiting = running.pendingRestart || [];
      clear(pending, waiting.length === 0 ? null : h("p", { class: "notice", "data-test": "cfg-pending" },
          h("span", { "aria-hidden": "true" }, "⚠ "),
          `Waiting for a restart: ${waiting.join(", ")}. The file holds changes these components run only after `
          + "the gateway restarts; until then they keep the configuration they started with."));
    } catch (e) {
      clear(pending, failure(e, readConfig));
    }
  }

  async function loadRevisions(select) {
    let revisions;
    try {
      revisions = await api.get("/api/v1/config/revisions");
    } catch (e) {
      clear(list, failure(e, () => loadRevisions(select)));
      return;
    }
    state.revisions = revisions;
    if (revisions.length === 0) {
      clear(list, empty("No revisions: the gateway was not started from a configuration file."));
      clear(detail);
      return;
    }
    const { element, body } = table(["#", "When", "Who", "Source", "Comment"], { class: "revisions", "data-test": "cfg-table" });
    for (const r of revisions) {
      const choose = h("button", { type: "button", class: "link", id: "cfg-select-" + r.number,
        "aria-label": `Show revision ${r.number}`, onclick: () => show(r.number) }, String(r.number));
      body.append(h("tr", { id: "cfg-row-" + r.number, "data-test": "cfg-revision", "data-number": r.number,
        "data-source": r.source },
      h("th", { scope: "row" }, choose),
      h("td", { class: "nowrap" }, f.time(r.at)),
      h("td", {}, r.author),
      h("td", {}, SOURCE_TEXT[r.source] || r.source),
      h("td", { class: "comment" }, r.comment || "–")));
    }
    clear(list, element);
    const wanted = revisions.find((r) => r.number === select) ? select : revisions[0].number;
    await show(wanted);
  }

  /** Selects a revision: marks its row and shows its diff against its parent. */
  async function show(number) {
    const mine = ++state.generation;
    state.selected = number;
    for (const row of list.querySelectorAll("[data-test=cfg-revision]")) {
      const chosen = Number(row.dataset.number) === number;
      row.classList.toggle("selected", chosen);
      row.querySelector("button").setAttribute("aria-pressed", String(chosen));
    }
    clear(detail, loading());
    let answer;
    try {
      answer = await api.get("/api/v1/config/revisions/" + number);
    } catch (e) {
      if (mine === state.generation) clear(detail, failure(e, () => show(number)));
      return;
    }
    if (mine !== state.generation) return;
    const r = answer.revision;
    const current = r.revision === state.fileRevision;
    clear(detail,
        h("h3", { id: "cfg-detail-title", "data-number": r.number }, `Revision ${r.number}`,
            current ? h("span", { class: "pill ok", "data-test": "cfg-current" }, "the file now") : null),
        h("dl", { class: "details" },
            h("dt", {}, "When"), h("dd", {}, f.time(r.at)),
            h("dt", {}, "Who"), h("dd", {}, r.author),
            h("dt", {}, "Source"), h("dd", {}, SOURCE_TEXT[r.source] || r.source),
            h("dt", {}, "Comment"), h("dd", {}, r.comment || "–"),
            h("dt", {}, "Made from"), h("dd", {}, r.parent === null || r.parent === undefined ? "–" : `revision ${r.parent}`),
            h("dt", {}, "Token"), h("dd", { class: "mono" }, r.revision)),
        h("h4", {}, "What it changed"),
        answer.diff ? diffView(answer.diff, "cfg-diff")
          : empty(r.number === state.revisions[state.revisions.length - 1].number
            ? "The oldest revision kept: there is nothing before it to compare with."
            : "No change in the file's lines against the revision before it."),
        canManage ? h("div", { class: "buttons" },
            h("button", { type: "button", id: "cfg-rollback", class: "danger", disabled: current,
              title: current ? "The file holds this revision now" : null, onclick: () => rollback(r) },
            "Roll back to this revision")) : null);
  }

  async function rollback(r) {
    let preview;
    try {
      preview = await api.get(`/api/v1/config/revisions/${r.number}/rollback`);
    } catch (e) {
      say(failure(e));
      return;
    }
    const problems = h("div", { "data-test": "cfg-rollback-problems" });
    const answer = await formDialog({
      id: "cfg-rollback-dialog", title: `Roll back to revision ${r.number}`, submitLabel: "Roll back",
      build(fields) {
        fields.closest("dialog").classList.add("wide");
        fields.append(
            h("p", {}, `The file gets revision ${r.number}'s text again, as a new revision. These lines change `
                + "(− leaves the file, + comes back):"),
            preview.diff ? diffView(preview.diff, "cfg-rollback-diff")
              : h("p", { class: "hint", "data-test": "cfg-rollback-same" }, "None: the file holds this text already."),
            h("label", { class: "field" }, h("span", {}, "Comment"),
                h("input", { type: "text", id: "cfg-rollback-comment", name: "comment", required: true, maxlength: 500,
                  placeholder: "why (kept with the revision)" })),
            problems);
      },
      async onSubmit(form) {
        problems.replaceChildren();
        try {
          return await api.post(`/api/v1/config/revisions/${r.number}/rollback`, {
            comment: form.querySelector("#cfg-rollback-comment").value, source: "console" });
        } catch (e) {
          throw refusal(e, problems, "Not rolled back");
        }
      },
    });
    if (!answer) return;
    say(written(answer, `Rolled back to revision ${r.number}.`));
    await refresh();
  }

  async function exportFile() {
    try {
      const file = await api.get("/api/v1/config/export");
      const url = URL.createObjectURL(new Blob([file.text], { type: "application/yaml" }));
      const link = h("a", { href: url, download: file.file || "gateway.yaml", hidden: true });
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
      say(h("p", { class: "status-line ok", "data-test": "cfg-exported", "data-file": file.file },
          `Exported ${file.file} (revision ${short(file.revision)}). Secrets written in clear read ***; `
          + "an import keeps their values."));
    } catch (e) {
      say(failure(e));
    }
  }

  /** A file was picked: validate it (changes nothing) and show its problems, or what it changes and Apply. */
  async function pickImport() {
    const file = fileInput.files && fileInput.files[0];
    if (!file) return;
    clear(outcome);
    clear(importPanel, loading(`Checking ${file.name}…`));
    let text;
    let check;
    try {
      text = await file.text();
      await readConfig(); // the revision the import is made on: the file as it is when checked
      check = await api.postText("/api/v1/config/validate", text, "application/yaml");
    } catch (e) {
      clear(importPanel, h("div", { class: "card", "data-test": "cfg-import-result", "data-valid": "false" },
          h("h3", {}, `Import ${file.name}`), failure(e), h("p", {}, "Nothing was changed."), closeButton()));
      return;
    }
    const base = state.fileRevision;
    if (!check.valid) {
      clear(importPanel, h("div", { class: "card", "data-test": "cfg-import-result", "data-valid": "false" },
          h("h3", {}, `Import ${file.name}`),
          h("p", { class: "error" }, `${file.name} is not a valid configuration: `
              + `${check.problems.length} ${check.problems.length === 1 ? "problem" : "problems"}. Nothing was changed.`),
          problemList(check.problems),
          closeButton()));
      return;
    }
    const comment = h("input", { type: "text", id: "cfg-import-comment", maxlength: 500,
      placeholder: "why (kept with the revision)" });
    const problems = h("div", { "data-test": "cfg-import-problems" });
    const apply = h("button", { type: "button", class: "primary", id: "cfg-import-apply" }, "Apply");
    apply.addEventListener("click", async () => {
      apply.disabled = true;
      problems.replaceChildren();
      try {
        const answer = await api.post("/api/v1/config/import", { revision: base, text,
          comment: comment.value || undefined, source: "console" });
        clear(importPanel);
        fileInput.value = "";
        say(written(answer, `Imported ${file.name}.`));
        await refresh();
      } catch (e) {
        const details = h("div");
        const error = refusal(e, details, "Not imported");
        clear(problems, h("p", { class: "error", role: "alert" }, error.message), details);
        apply.disabled = e.status === 409; // made on a revision that is gone: pick the file again
      }
    });
    clear(importPanel, h("div", { class: "card", "data-test": "cfg-import-result", "data-valid": "true",
      "data-changes": check.diff.length },
    h("h3", {}, `Import ${file.name}`),
    check.diff.length === 0
      ? h("p", { "data-test": "cfg-import-same" }, "It is the running configuration: applying it changes nothing.")
      : [h("p", {}, `Valid. ${check.diff.length} ${check.diff.length === 1 ? "key differs" : "keys differ"} from the `
          + "running configuration:"), changeTable(check.diff)],
    h("p", { "data-test": "cfg-import-restarts" }, check.restarts.length === 0 ? "Nothing restarts."
      : `Applying it restarts: ${check.restarts.join(", ")}.`),
    h("label", { class: "field" }, h("span", {}, "Comment"), comment),
    problems,
    h("div", { class: "buttons" }, closeButton("Cancel"), apply)));
  }

  function closeButton(label = "Close") {
    return h("button", { type: "button", id: "cfg-import-close", onclick: () => {
      clear(importPanel);
      fileInput.value = "";
    } }, label);
  }

  async function reload() {
    const button = root.querySelector("#cfg-reload");
    button.disabled = true;
    try {
      const answer = await api.post("/api/v1/config/reload");
      say(answer.diff.length === 0 && answer.applied.length === 0 && answer.needRestart.length === 0
        ? h("p", { class: "status-line ok", "data-test": "cfg-reloaded" }, "The file on disk is the one the gateway "
            + "has: nothing to reload.")
        : written(answer, "Reloaded the file from disk."));
      await refresh();
    } catch (e) {
      const problems = h("div");
      const error = refusal(e, problems, "Not reloaded");
      say(h("div", { class: "result partial", "data-test": "cfg-reload-refused" }, h("p", { class: "error" }, error.message),
          problems));
    } finally {
      button.disabled = false;
    }
  }

  function say(element) {
    clear(outcome, element);
  }

  async function refresh() {
    await readConfig();
    await loadRevisions(null);
  }

  await readConfig();
  await loadRevisions(null);
}

/** "sha256:3f1c9a2b…" */
function short(revision) {
  return String(revision || "").slice(0, 15) + "…";
}

/** A unified diff, one line each; added and removed lines marked by colour and their + or − sign. */
function diffView(text, id) {
  const lines = String(text).replace(/\n$/, "").split("\n");
  return h("pre", { class: "diff-view", id, "data-test": id }, lines.map((line) => {
    const kind = line.startsWith("@@") ? "hunk" : line.startsWith("+++") || line.startsWith("---") ? "file"
      : line.startsWith("+") ? "add" : line.startsWith("-") ? "del" : "same";
    return h("span", { class: kind }, line + "\n");
  }));
}

function shown(value) {
  if (value === null || value === undefined) return "(absent)";
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

/** The keys a change would make differ: key, now, then. */
function changeTable(diff) {
  const { element, body } = table(["Key", "Now", "In the file"], { "data-test": "cfg-import-diff" });
  for (const c of diff) {
    body.append(h("tr", { "data-test": "cfg-change", "data-key": c.key },
        h("td", { class: "mono" }, c.key), h("td", { class: "mono" }, shown(c.from)), h("td", { class: "mono" }, shown(c.to))));
  }
  return element;
}

function problemList(problems) {
  return h("ul", { class: "problems", "data-test": "cfg-problems" }, problems.map((p) =>
    h("li", { "data-test": "cfg-problem", "data-key": p.key },
        h("span", { class: "mono" }, p.key || "(the file)"), ": ", p.message,
        p.line ? h("span", { class: "sub" }, ` line ${p.line}${p.column ? ", column " + p.column : ""}`) : null)));
}

/** Fills {@code holder} with a refusal's details (problems, lines changed meanwhile); returns the error to show. */
function refusal(e, holder, what) {
  const body = e.body || {};
  if (e.status === 422 && Array.isArray(body.problems)) {
    holder.append(problemList(body.problems));
    return new Error(`${what}: ${body.error || "the configuration would not be valid"}. Nothing was changed.`);
  }
  if (e.status === 409) {
    holder.append(h("p", {}, `The file changed meanwhile; it is at ${short(body.currentRevision)} now. Lines changed since:`),
        body.diff ? diffView(body.diff, "cfg-stale-diff") : h("p", { class: "hint" }, "(that revision is no longer kept)"));
    return new Error(`${what}: the file changed meanwhile. Nothing was changed; look at the lines below and start again.`);
  }
  return new Error(`${what}: ${e.message}`);
}

/** What a written change did: the new revision, the keys, what runs it now and what waits for a restart. */
function written(answer, headline) {
  const keys = answer.diff || [];
  const applied = answer.applied || [];
  const waiting = answer.needRestart || [];
  return h("div", { class: "result" + (waiting.length ? " partial" : ""), "data-test": "cfg-written",
    "data-revision": answer.revision },
  h("p", {}, h("strong", {}, headline), " ", keys.length === 0 ? "No key changed."
    : `${keys.length} ${keys.length === 1 ? "key" : "keys"} changed (the file is at ${short(answer.revision)} now).`),
  keys.length ? h("ul", {}, keys.map((c) => h("li", { class: "mono" }, `${c.key}: ${shown(c.from)} → ${shown(c.to)}`))) : null,
  h("p", { "data-test": "cfg-applied" }, "Applied live: ", applied.length ? applied.join(", ") : "nothing"),
  h("p", { "data-test": "cfg-need-restart" }, "Waits for a restart: ", waiting.length ? waiting.join(", ") : "nothing"));
}
