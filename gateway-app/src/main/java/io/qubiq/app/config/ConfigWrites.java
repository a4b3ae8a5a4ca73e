package io.qubiq.app.config;

import io.qubiq.config.ConfigException;
import io.qubiq.config.ConfigSchema;
import io.qubiq.config.ConfigTree;
import io.qubiq.config.edit.KeyPath;
import io.qubiq.config.edit.YamlEdit;
import io.qubiq.config.edit.YamlEditException;
import io.qubiq.config.edit.YamlTextEditor;
import io.qubiq.config.revision.ConfigRevisions;
import io.qubiq.config.revision.Revision;
import io.qubiq.config.secret.SecretStore;
import io.qubiq.console.ConfigChanges;
import io.qubiq.console.RequestFailure;
import io.qubiq.core.event.EventPublisher;
import io.qubiq.fileops.FileOps;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;

/**
 * The write side of the configuration API over the configuration file: a change is made on the revision
 * the client read, turned into the fewest edits of the file's text ({@link LeafEdits},
 * {@link YamlTextEditor}), validated as a whole with the start-up loader, environment and command-line
 * overrides, committed as a new revision ({@link ConfigRevisions}, in {@code <data dir>/config-revisions}),
 * handed to the {@link ConfigApplier} with the components it touches, recorded in the audit journal with
 * its masked diff, and only then reported in {@link ConfigState}.
 *
 * <p><b>Secrets</b> entered in clear (a put, or an imported file) never reach the file: each goes to the
 * data directory's {@link SecretStore} under a new name and the file gets a {@code ${secret:NAME}}
 * reference ({@link NewSecrets}). The store keeps them before the file is written; after a commit it
 * forgets the secrets that neither the file nor a kept revision names any more.
 *
 * <p><b>Refused, nothing written:</b> a base revision that is not the file's ({@link ConfigChanges.Stale}
 * with the masked line diff since); a new file that would not start, a secret set without a data directory
 * to keep it in, a key whose value comes from {@code ${VARIABLE}} changed, or an edit the text editor
 * refuses ({@link ConfigChanges.Invalid}). Removing a key, section or connection that holds secrets is
 * allowed.
 *
 * <p><b>Asked first, nothing written:</b> a change that would cost buffered data without the caller's choice
 * ({@link BacklogQuestion}: a {@code max_bytes} lowered below a channel's backlog) is answered
 * {@link ConfigChanges.ChoiceNeeded} (a put, remove, import or rollback); the choice, once given, goes to the
 * {@link ConfigApplier} and the audit entry. A hand edit reloaded is applied without asking, with the choices
 * that keep the data ({@code keep}, {@code keep_orphan}): the file has changed already.
 *
 * <p>Without a configuration file (a record bound in memory) every change answers NotFound and there are
 * no revisions.
 *
 * <p><b>Roles.</b> This class turns each call into the file's new text and hands it to the commit path
 * ({@link ChangeCommit}); beside it, {@link ConfigFile} reads and binds the file, {@link ChangeSecrets} keeps
 * and forgets secrets, {@link BacklogQuestion} asks about buffered data, {@link RevisionViews} shows
 * revisions and their masked diffs, {@link ChangeRefusals} words the refusals and {@link ChangeAudit} writes
 * the audit entry.
 *
 * <p><b>Threading:</b> changes are serialised on this object; the revision store is the only writer of
 * the file while the gateway runs (hand edits are found by their hash).
 */
public final class ConfigWrites implements ConfigChanges {

    /** Revisions kept in the data directory. */
    static final int KEEP = 200;
    /** The revisions directory in the data directory. */
    public static final String REVISIONS_DIR = "config-revisions";

    private final ConfigState state;
    private final Optional<ConfigRevisions> revisions;
    private final ConfigFile file;
    private final ExportedText exported;
    private final ChangeSecrets secrets;
    private final RevisionViews views;
    private final ChangeCommit commits;

    private ConfigWrites(ConfigState state, Optional<ConfigRevisions> revisions, ConfigApplier applier,
                         EventPublisher events, Clock clock) {
        SecretText secretText = SecretText.of(ConfigSchema.of(GatewayConfig.class));
        this.state = state;
        this.revisions = revisions;
        this.file = new ConfigFile(state);
        this.exported = new ExportedText(secretText.names());
        this.secrets = new ChangeSecrets(secretText.names());
        this.views = new RevisionViews(secretText);
        this.commits = new ChangeCommit(file, state, applier, secrets, views, new ChangeAudit(events, clock));
    }

    /**
     * Opens the revisions of the file {@code state} was read from (recording the file as a revision when it
     * is new or was edited by hand since), or none when it was not read from a file.
     *
     * @throws IOException the revisions directory cannot be read or written
     */
    public static ConfigWrites open(ConfigState state, Path dataRoot, ConfigApplier applier, EventPublisher events,
                                    Clock clock) throws IOException {
        Optional<Path> file = state.read().file().file();
        Optional<ConfigRevisions> revisions = file.isEmpty() ? Optional.empty()
                : Optional.of(ConfigRevisions.open(file.get(), dataRoot.resolve(REVISIONS_DIR), FileOps.system(), clock,
                        KEEP));
        return new ConfigWrites(state, revisions, applier, events, clock);
    }

    @Override
    public Outcome put(String keyPath, Object value, String baseRevision, String comment, Author author) {
        return put(keyPath, value, baseRevision, comment, author, Choices.none());
    }

    @Override
    public synchronized Outcome put(String keyPath, Object value, String baseRevision, String comment, Author author,
                                    Choices choices) {
        KeyPath path = keyPath(keyPath);
        return onRevision(baseRevision, (store, disk) -> {
            LoadedConfig raw;
            try {
                raw = file.bind(disk.text());
            } catch (ConfigException e) {
                return ChangeRefusals.invalid("the file was changed by hand and is not valid now: fix it, then POST"
                        + " /api/v1/config/reload", e);
            }
            Map<String, Object> tree = ConfigTree.masked(raw.config());
            NewSecrets entered = newSecrets();
            List<YamlEdit> edits = new ArrayList<>();
            String text;
            try {
                for (YamlEdit edit : LeafEdits.of(tree, path, value)) {
                    if (edit instanceof YamlEdit.Put put) {
                        Optional<Invalid> refused = ChangeRefusals.fromEnvironment(raw, put);
                        if (refused.isPresent()) {
                            return refused.get();
                        }
                        edit = entered.place(put);
                    }
                    edits.add(edit);
                }
                text = YamlTextEditor.apply(disk.text(), edits);
            } catch (YamlEditException e) {
                return ChangeRefusals.atKey(e.path() == null ? keyPath : e.path().toString(), e.getMessage());
            }
            return commits.commit(store, disk, state.read().file().successor(raw),
                    new ChangeCommit.Proposal(text, entered, author.source(), true),
                    new ChangeAudit.Recorded(author, comment, "config/" + path, "changed", choices));
        });
    }

    @Override
    public Outcome remove(String keyPath, String baseRevision, String comment, Author author) {
        return remove(keyPath, baseRevision, comment, author, Choices.none());
    }

    @Override
    public synchronized Outcome remove(String keyPath, String baseRevision, String comment, Author author,
                                       Choices choices) {
        KeyPath path = keyPath(keyPath);
        return onRevision(baseRevision, (store, disk) -> {
            String text;
            try {
                text = YamlTextEditor.apply(disk.text(), List.of(new YamlEdit.Remove(path)));
            } catch (YamlEditException e) {
                return ChangeRefusals.atKey(keyPath, e.getMessage());
            }
            if (text.equals(disk.text())) {
                throw new RequestFailure.NotFound("the configuration file has no key '" + path
                        + "' to remove (a key left out reads its default)");
            }
            return commits.commit(store, disk, file.before(disk),
                    new ChangeCommit.Proposal(text, newSecrets(), author.source(), false),
                    new ChangeAudit.Recorded(author, comment, "config/" + path, "removed", choices));
        });
    }

    @Override
    public synchronized Outcome reload(Author author) {
        ConfigRevisions store = store();
        OnDisk disk = file.read();
        LoadedConfig before = state.read().file();
        if (before.revision().equals(disk.revision())) {
            return new Written(disk.revision(), List.of(), List.of(), List.of());
        }
        LoadedConfig candidate;
        try {
            candidate = file.bind(disk.text());
        } catch (ConfigException e) {
            return ChangeRefusals.invalid("the file as edited by hand is not valid; nothing was applied: fix it and"
                    + " reload again", e);
        }
        Revision revision;
        try {
            revision = store.recordFileIfChanged();
        } catch (IOException e) {
            throw new RequestFailure.Fault("cannot record the configuration file as a revision: " + e.getMessage());
        }
        String recorded = OnDisk.revisionOf(revision.token());
        if (!recorded.equals(disk.revision())) {
            return new Stale("the file changed again while it was being reloaded: reload again", recorded, "");
        }
        return commits.applied(before, before.successor(candidate), revision,
                new ChangeAudit.Recorded(author, "", "config", "reloaded", Choices.none()));
    }

    @Override
    public synchronized Export export() {
        store(); // a configuration not read from a file has nothing to export (404)
        OnDisk disk = file.read();
        Path path = state.read().file().file().orElseThrow();
        try {
            return new Export(disk.revision(), path.getFileName().toString(), exported.masked(disk.text()));
        } catch (YamlEditException e) {
            throw new RequestFailure.Fault("cannot mask the secrets of " + path + " for export: " + e.getMessage());
        }
    }

    @Override
    public Outcome importText(String text, String baseRevision, String comment, Author author) {
        return importText(text, baseRevision, comment, author, Choices.none());
    }

    @Override
    public synchronized Outcome importText(String text, String baseRevision, String comment, Author author,
                                           Choices choices) {
        return onRevision(baseRevision, (store, disk) -> {
            NewSecrets entered = newSecrets();
            String whole;
            try {
                whole = exported.intoStore(exported.unmasked(text, disk.text()), disk.text(), entered);
            } catch (YamlEditException e) {
                return ChangeRefusals.atKey(e.path().toString(), e.getMessage());
            }
            return commits.commit(store, disk, file.before(disk),
                    new ChangeCommit.Proposal(whole, entered, "import", false),
                    new ChangeAudit.Recorded(author, comment, "config", "imported", choices));
        });
    }

    @Override
    public Outcome rollback(String id, String comment, Author author) {
        return rollback(id, comment, author, Choices.none());
    }

    @Override
    public synchronized Outcome rollback(String id, String comment, Author author, Choices choices) {
        ConfigRevisions store = store();
        Revision target = RevisionViews.find(store, id);
        String text = RevisionViews.text(store, target);
        OnDisk disk = file.read();
        String why = "rollback to revision " + target.number() + (comment.isBlank() ? "" : ": " + comment);
        return commits.commit(store, disk, file.before(disk), new ChangeCommit.Proposal(text, newSecrets(), "rollback",
                false), new ChangeAudit.Recorded(author, why, "config", "rolled back to revision " + target.number(),
                choices));
    }

    @Override
    public synchronized RollbackPreview rollbackPreview(String id) {
        ConfigRevisions store = store();
        Revision target = RevisionViews.find(store, id);
        return views.rollbackPreview(store, target, file.read());
    }

    @Override
    public List<RevisionSummary> revisions() {
        return revisions.map(store -> store.list().stream().map(RevisionViews::summary).toList()).orElse(List.of());
    }

    @Override
    public RevisionDetail revision(String id) {
        return views.detail(store(), id);
    }

    /**
     * {@code change} made on the file as it is now, when {@code baseRevision} names it (the revision the
     * client read); the {@link Stale} answer, with the diff since, when the file has moved on.
     */
    private Outcome onRevision(String baseRevision, BiFunction<ConfigRevisions, OnDisk, Outcome> change) {
        ConfigRevisions store = store();
        OnDisk disk = file.read();
        if (!disk.named(baseRevision)) {
            return views.stale(store, baseRevision, disk);
        }
        return change.apply(store, disk);
    }

    private NewSecrets newSecrets() {
        SecretStore store = state.read().file().secrets();
        return secrets.entering(store);
    }

    private ConfigRevisions store() {
        return revisions.orElseThrow(() -> new RequestFailure.NotFound("the configuration was not read from a file,"
                + " so there is nothing to change: start the gateway with a configuration file"));
    }

    private static KeyPath keyPath(String text) {
        try {
            return KeyPath.parse(text);
        } catch (IllegalArgumentException e) {
            throw new RequestFailure.InvalidRequest(e.getMessage());
        }
    }
}
