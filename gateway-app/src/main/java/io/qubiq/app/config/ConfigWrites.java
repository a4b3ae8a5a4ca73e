package io.qubiq.app.config;

import io.qubiq.config.ConfigDiff;
import io.qubiq.config.ConfigException;
import io.qubiq.config.ConfigSchema;
import io.qubiq.config.ConfigTree;
import io.qubiq.config.SecretLookup;
import io.qubiq.config.edit.KeyPath;
import io.qubiq.config.edit.YamlEdit;
import io.qubiq.config.edit.YamlEditException;
import io.qubiq.config.edit.YamlTextEditor;
import io.qubiq.config.revision.ConfigRevisions;
import io.qubiq.config.revision.LineDiff;
import io.qubiq.config.revision.Revision;
import io.qubiq.config.revision.StaleRevisionException;
import io.qubiq.config.secret.SecretStore;
import io.qubiq.console.ConfigAccess;
import io.qubiq.console.ConfigChanges;
import io.qubiq.console.RequestFailure;
import io.qubiq.core.event.AuditAction;
import io.qubiq.core.event.AuditEvent;
import io.qubiq.core.event.EventPublisher;
import io.qubiq.fileops.FileOps;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
 * <p><b>Threading:</b> changes are serialised on this object; the revision store is the only writer of
 * the file while the gateway runs (hand edits are found by their hash).
 */
public final class ConfigWrites implements ConfigChanges {

    /** Revisions kept in the data directory. */
    static final int KEEP = 200;
    /** The revisions directory in the data directory. */
    public static final String REVISIONS_DIR = "config-revisions";
    private static final String SHA = "sha256:";
    private static final int DETAIL_MAX = 4000;
    private static final Logger log = LoggerFactory.getLogger(ConfigWrites.class);

    private final ConfigState state;
    private final Optional<ConfigRevisions> revisions;
    private final ConfigApplier applier;
    private final EventPublisher events;
    private final Clock clock;
    private final SecretText secrets = SecretText.of(ConfigSchema.of(GatewayConfig.class));
    private final ExportedText exported = new ExportedText(secrets.names());
    /** The secret names each kept revision's text refers to, by revision number and token (its text's hash). */
    private final Map<String, Set<String>> secretsNamedBy = new java.util.HashMap<>();

    private ConfigWrites(ConfigState state, Optional<ConfigRevisions> revisions, ConfigApplier applier,
                         EventPublisher events, Clock clock) {
        this.state = state;
        this.revisions = revisions;
        this.applier = applier;
        this.events = events;
        this.clock = clock;
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
        ConfigRevisions store = store();
        OnDisk disk = onDisk();
        if (!disk.named(baseRevision)) {
            return stale(store, baseRevision, disk);
        }
        LoadedConfig raw;
        try {
            raw = bind(disk.text());
        } catch (ConfigException e) {
            return invalid("the file was changed by hand and is not valid now: fix it, then POST /api/v1/config/reload",
                    e);
        }
        Map<String, Object> tree = ConfigTree.masked(raw.config());
        NewSecrets entered = newSecrets();
        List<YamlEdit> edits = new ArrayList<>();
        String text;
        try {
            for (YamlEdit edit : LeafEdits.of(tree, path, value)) {
                if (edit instanceof YamlEdit.Put put) {
                    Optional<Invalid> refused = fromEnvironment(raw, put);
                    if (refused.isPresent()) {
                        return refused.get();
                    }
                    edit = entered.place(put);
                }
                edits.add(edit);
            }
            text = YamlTextEditor.apply(disk.text(), edits);
        } catch (YamlEditException e) {
            return invalidKey(e.path() == null ? keyPath : e.path().toString(), e.getMessage());
        }
        return commit(store, disk, state.read().file().successor(raw), text, entered, author, author.source(), comment,
                "config/" + path, "changed", true, choices);
    }

    @Override
    public Outcome remove(String keyPath, String baseRevision, String comment, Author author) {
        return remove(keyPath, baseRevision, comment, author, Choices.none());
    }

    @Override
    public synchronized Outcome remove(String keyPath, String baseRevision, String comment, Author author,
                                       Choices choices) {
        KeyPath path = keyPath(keyPath);
        ConfigRevisions store = store();
        OnDisk disk = onDisk();
        if (!disk.named(baseRevision)) {
            return stale(store, baseRevision, disk);
        }
        String text;
        try {
            text = YamlTextEditor.apply(disk.text(), List.of(new YamlEdit.Remove(path)));
        } catch (YamlEditException e) {
            return invalidKey(keyPath, e.getMessage());
        }
        if (text.equals(disk.text())) {
            throw new RequestFailure.NotFound("the configuration file has no key '" + path
                    + "' to remove (a key left out reads its default)");
        }
        return commit(store, disk, before(disk), text, newSecrets(), author, author.source(), comment, "config/" + path,
                "removed", false, choices);
    }

    @Override
    public synchronized Outcome reload(Author author) {
        ConfigRevisions store = store();
        OnDisk disk = onDisk();
        LoadedConfig before = state.read().file();
        if (before.revision().equals(disk.revision())) {
            return new Written(disk.revision(), List.of(), List.of(), List.of());
        }
        LoadedConfig candidate;
        try {
            candidate = bind(disk.text());
        } catch (ConfigException e) {
            return invalid("the file as edited by hand is not valid; nothing was applied: fix it and reload again", e);
        }
        Revision revision;
        try {
            revision = store.recordFileIfChanged();
        } catch (IOException e) {
            throw new RequestFailure.Fault("cannot record the configuration file as a revision: " + e.getMessage());
        }
        if (!(SHA + revision.token()).equals(disk.revision())) {
            return new Stale("the file changed again while it was being reloaded: reload again", SHA + revision.token(),
                    "");
        }
        return applied(before, before.successor(candidate), revision, author, "config", "reloaded", "");
    }

    @Override
    public synchronized Export export() {
        store(); // a configuration not read from a file has nothing to export (404)
        OnDisk disk = onDisk();
        Path file = state.read().file().file().orElseThrow();
        try {
            return new Export(disk.revision(), file.getFileName().toString(), exported.masked(disk.text()));
        } catch (YamlEditException e) {
            throw new RequestFailure.Fault("cannot mask the secrets of " + file + " for export: " + e.getMessage());
        }
    }

    @Override
    public Outcome importText(String text, String baseRevision, String comment, Author author) {
        return importText(text, baseRevision, comment, author, Choices.none());
    }

    @Override
    public synchronized Outcome importText(String text, String baseRevision, String comment, Author author,
                                           Choices choices) {
        ConfigRevisions store = store();
        OnDisk disk = onDisk();
        if (!disk.named(baseRevision)) {
            return stale(store, baseRevision, disk);
        }
        NewSecrets entered = newSecrets();
        String whole;
        try {
            whole = exported.intoStore(exported.unmasked(text, disk.text()), disk.text(), entered);
        } catch (YamlEditException e) {
            return invalidKey(e.path().toString(), e.getMessage());
        }
        return commit(store, disk, before(disk), whole, entered, author, "import", comment, "config", "imported",
                false, choices);
    }

    @Override
    public Outcome rollback(String id, String comment, Author author) {
        return rollback(id, comment, author, Choices.none());
    }

    @Override
    public synchronized Outcome rollback(String id, String comment, Author author, Choices choices) {
        ConfigRevisions store = store();
        Revision target = find(store, id);
        String text;
        try {
            text = store.text(target);
        } catch (IOException e) {
            throw new RequestFailure.Fault("cannot read revision " + target.number() + ": " + e.getMessage());
        }
        OnDisk disk = onDisk();
        String why = "rollback to revision " + target.number() + (comment.isBlank() ? "" : ": " + comment);
        return commit(store, disk, before(disk), text, newSecrets(), author, "rollback", why, "config",
                "rolled back to revision " + target.number(), false, choices);
    }

    @Override
    public synchronized RollbackPreview rollbackPreview(String id) {
        ConfigRevisions store = store();
        Revision target = find(store, id);
        OnDisk disk = onDisk();
        try {
            String text = store.text(target);
            return new RollbackPreview(summary(target), disk.revision(),
                    text.equals(disk.text()) ? "" : maskedDiff(disk.text(), text));
        } catch (IOException e) {
            throw new RequestFailure.Fault("cannot read revision " + target.number() + ": " + e.getMessage());
        }
    }

    @Override
    public List<RevisionSummary> revisions() {
        return revisions.map(store -> store.list().stream().map(ConfigWrites::summary).toList()).orElse(List.of());
    }

    @Override
    public RevisionDetail revision(String id) {
        ConfigRevisions store = store();
        Revision revision = find(store, id);
        long parentNumber = revision.parent().orElse(revision.number() - 1);
        String diff = "";
        Optional<Revision> parent = store.find(String.valueOf(parentNumber));
        try {
            if (parent.isPresent()) {
                diff = maskedDiff(store.text(parent.get()), store.text(revision));
            }
        } catch (IOException e) {
            throw new RequestFailure.Fault("cannot read revision " + revision.number() + ": " + e.getMessage());
        }
        return new RevisionDetail(summary(revision), diff);
    }

    /** Validates {@code text}, commits it on the file's revision, applies it; see the class doc. */
    private Outcome commit(ConfigRevisions store, OnDisk disk, LoadedConfig before, String text, NewSecrets entered,
                           Author author, String source, String comment, String target, String outcome,
                           boolean refuseSecrets, Choices choices) {
        LoadedConfig candidate;
        try {
            candidate = bind(text, entered);
        } catch (ConfigException e) {
            return invalid("the configuration would not be valid; nothing was written", e);
        }
        LoadedConfig after = before.successor(candidate);
        if (refuseSecrets) {
            for (ConfigDiff.Change change : ConfigDiff.between(before.config(), after.config())) {
                if (ConfigTree.MASK.equals(change.to()) && !after.fromEnvironment().containsKey(change.key())
                        && !after.fromSecrets().containsKey(change.key())) {
                    return invalidKey(change.key(), "'" + change.key() + "' is a secret, set here in a way that would"
                            + " write it into the file in clear: set it on its own key, so it goes to the secrets store");
                }
            }
        }
        Optional<ChoiceNeeded> question = BacklogQuestion.ask(applier, before, after, choices);
        if (question.isPresent()) {
            return question.get();
        }
        SecretStore secrets = state.read().file().secrets();
        if (!entered.values().isEmpty()) {
            if (secrets.directory().isEmpty()) {
                String key = after.fromSecrets().keySet().stream().findFirst().orElse("");
                return invalidKey(key, "'" + key + "' is a secret, and this gateway has no data directory to keep"
                        + " secrets in: write it in the configuration file as a ${VARIABLE} reference");
            }
            try {
                secrets.keep(entered.values());
            } catch (IOException e) {
                throw new RequestFailure.Fault("cannot keep the secret in the secrets store (nothing changed): "
                        + e.getMessage());
            }
        }
        Revision revision;
        try {
            revision = store.commit(text, disk.token(), author.author(), source, comment);
        } catch (StaleRevisionException e) {
            return stale(store, disk.revision(), new OnDisk(e.currentText(), e.currentToken()));
        } catch (IOException e) {
            throw new RequestFailure.Fault("cannot write the configuration file (nothing changed): " + e.getMessage());
        }
        forgetUnnamedSecrets(store, secrets);
        return applied(before, after, revision, author, target, outcome, comment, choices);
    }

    /**
     * Forgets the secrets that neither the file nor a kept revision names; a failure is only logged. Each
     * revision's text is read once for the names it refers to (so a change reads one file, not every kept one).
     */
    private void forgetUnnamedSecrets(ConfigRevisions store, SecretStore secrets) {
        if (secrets.names().isEmpty()) {
            return;
        }
        try {
            Set<String> named = new HashSet<>();
            List<Revision> kept = store.list();
            secretsNamedBy.keySet().retainAll(kept.stream().map(ConfigWrites::cacheKey).collect(Collectors.toSet()));
            for (Revision revision : kept) {
                Set<String> names = secretsNamedBy.get(cacheKey(revision));
                if (names == null) {
                    names = Set.copyOf(SecretStore.referencedBy(store.text(revision)));
                    secretsNamedBy.put(cacheKey(revision), names);
                }
                named.addAll(names);
            }
            int forgotten = secrets.retainOnly(named::contains);
            if (forgotten > 0) {
                log.info("Forgot {} secret(s) that no kept revision of the configuration names", forgotten);
            }
        } catch (IOException e) {
            log.warn("Could not forget the secrets no revision names any more (they stay, and are tried again after"
                    + " the next change): {}", e.getMessage());
        }
    }

    private static String cacheKey(Revision revision) {
        return revision.number() + " " + revision.token();
    }

    private Written applied(LoadedConfig before, LoadedConfig after, Revision revision, Author author, String target,
                            String outcome, String comment) {
        return applied(before, after, revision, author, target, outcome, comment, Choices.none());
    }

    private Written applied(LoadedConfig before, LoadedConfig after, Revision revision, Author author, String target,
                            String outcome, String comment, Choices choices) {
        List<ConfigDiff.Change> diff = ConfigDiff.between(before.config(), after.config());
        if (diff.isEmpty() && before.revision().equals(SHA + revision.token())) {
            return new Written(SHA + revision.token(), List.of(), List.of(), List.of());
        }
        ConfigState.Pair now = state.read();
        List<String> components = ConfigState.componentsChanged(before, after);
        ConfigApplier.Applied result = components.isEmpty()
                ? new ConfigApplier.Applied(List.of(), List.of())
                : applier.apply(now.running(), after, new LinkedHashSet<>(components), choices, author.user());
        state.fileChanged(after, result.applied(), result.needRestart());
        List<ConfigAccess.Change> changes = diff.stream()
                .map(c -> new ConfigAccess.Change(c.key(), c.from(), c.to())).toList();
        audit(author, target, outcome, revision, changes, result, comment, choices);
        return new Written(SHA + revision.token(), changes, result.applied(), result.needRestart());
    }

    private void audit(Author author, String target, String outcome, Revision revision,
                       List<ConfigAccess.Change> changes, ConfigApplier.Applied result, String comment,
                       Choices choices) {
        Map<String, String> details = new LinkedHashMap<>();
        details.put(AuditAction.DETAIL_FROM, author.from());
        details.put("revision", revision.number() + " " + SHA + revision.token());
        details.put("source", revision.source());
        details.put("diff", clip(changes.stream().map(c -> c.key() + ": " + c.from() + " -> " + c.to())
                .collect(Collectors.joining("; "))));
        details.put("applied", String.join(", ", result.applied()));
        details.put("need_restart", String.join(", ", result.needRestart()));
        if (!comment.isBlank()) {
            details.put("comment", clip(comment));
        }
        choices.onShrink().ifPresent(choice -> details.put("on_shrink", choice));
        choices.onRemove().ifPresent(choice -> details.put("on_remove", choice));
        events.audit(new AuditEvent(clock.instant(), author.user(), AuditAction.CONFIG_CHANGE, target, outcome,
                details));
    }

    private static String clip(String text) {
        return text.length() <= DETAIL_MAX ? text : text.substring(0, DETAIL_MAX) + "…";
    }

    /** A put the API may not make: a key whose value comes from the environment. */
    private static Optional<Invalid> fromEnvironment(LoadedConfig raw, YamlEdit.Put put) {
        String key = put.path().toString();
        for (Map.Entry<String, List<String>> env : raw.fromEnvironment().entrySet()) {
            if (related(key, env.getKey())) {
                String variables = env.getValue().stream().map(v -> "${" + v + "}").collect(Collectors.joining(", "));
                return Optional.of(invalidKey(env.getKey(), "'" + env.getKey() + "' takes its value from the environment ("
                        + variables + "): change the variable, not the key"));
            }
        }
        return Optional.empty();
    }

    /** Whether one key path is the other or lies under it. */
    private static boolean related(String a, String b) {
        return a.equals(b) || under(a, b) || under(b, a);
    }

    private static boolean under(String inner, String outer) {
        return inner.startsWith(outer) && (inner.charAt(outer.length()) == '.' || inner.charAt(outer.length()) == '[');
    }

    private Stale stale(ConfigRevisions store, String base, OnDisk disk) {
        String hex = base.startsWith(SHA) ? base.substring(SHA.length()) : base;
        String diff = "";
        Optional<Revision> known = hex.length() >= 8 ? store.find(hex) : Optional.empty();
        if (known.isPresent() && known.get().token().equals(hex)) {
            try {
                diff = maskedDiff(store.text(known.get()), disk.text());
            } catch (IOException e) {
                diff = "";
            }
        }
        return new Stale("the change was made on revision " + base + ", but the file is at " + disk.revision()
                + " now: read the configuration again, look at what changed, and make the change again",
                disk.revision(), diff);
    }

    private String maskedDiff(String before, String after) {
        return LineDiff.unified(secrets.mask(before), secrets.mask(after), 3);
    }

    private static Invalid invalid(String error, ConfigException e) {
        return new Invalid(error, e.problems().stream()
                .map(p -> new ConfigAccess.Problem(p.keyPath(), p.message(), p.line(), p.column())).toList());
    }

    private static Invalid invalidKey(String key, String message) {
        return new Invalid(message, List.of(new ConfigAccess.Problem(key, message, 0, 0)));
    }

    /** The configuration the file holds now, as the gateway would run it. */
    private LoadedConfig before(OnDisk disk) {
        LoadedConfig known = state.read().file();
        if (known.revision().equals(disk.revision())) {
            return known;
        }
        try {
            return known.successor(bind(disk.text()));
        } catch (ConfigException e) {
            return known; // a broken hand edit: compare with the last valid file
        }
    }

    private LoadedConfig bind(String text) throws ConfigException {
        return bind(text, state.read().file().secrets());
    }

    /** {@code text} bound as the running file is, its secret references resolved in {@code secrets}. */
    private LoadedConfig bind(String text, SecretLookup secrets) throws ConfigException {
        LoadedConfig known = state.read().file();
        return LoadedConfig.bind(known.source(), "sha256", text, known.environment(), known.secrets(), secrets);
    }

    private NewSecrets newSecrets() {
        return new NewSecrets(state.read().file().secrets(), secrets.names());
    }

    private ConfigRevisions store() {
        return revisions.orElseThrow(() -> new RequestFailure.NotFound("the configuration was not read from a file,"
                + " so there is nothing to change: start the gateway with a configuration file"));
    }

    private OnDisk onDisk() {
        Path file = state.read().file().file().orElseThrow();
        try {
            byte[] bytes = Files.readAllBytes(file);
            return new OnDisk(new String(bytes, StandardCharsets.UTF_8), ConfigRevisions.token(bytes));
        } catch (IOException e) {
            throw new RequestFailure.Fault("cannot read the configuration file " + file + ": " + e.getMessage());
        }
    }

    private static Revision find(ConfigRevisions store, String id) {
        String key = id.startsWith(SHA) ? id.substring(SHA.length()) : id;
        return store.find(key).orElseThrow(() -> new RequestFailure.NotFound("no kept revision '" + id
                + "': name one by its number or its sha256 token (GET /api/v1/config/revisions)"));
    }

    private static KeyPath keyPath(String text) {
        try {
            return KeyPath.parse(text);
        } catch (IllegalArgumentException e) {
            throw new RequestFailure.InvalidRequest(e.getMessage());
        }
    }

    private static RevisionSummary summary(Revision r) {
        return new RevisionSummary(r.number(), SHA + r.token(), r.parent().orElse(null), r.author(), r.at(), r.source(),
                r.comment());
    }

    /** The file's text and token as read now. */
    private record OnDisk(String text, String token) {
        String revision() {
            return SHA + token;
        }

        boolean named(String revision) {
            return revision.equals(revision()) || revision.equals(token);
        }
    }
}
