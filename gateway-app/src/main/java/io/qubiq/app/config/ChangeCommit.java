package io.qubiq.app.config;

import io.qubiq.config.ConfigDiff;
import io.qubiq.config.ConfigException;
import io.qubiq.config.revision.ConfigRevisions;
import io.qubiq.config.revision.Revision;
import io.qubiq.config.revision.StaleRevisionException;
import io.qubiq.config.secret.SecretStore;
import io.qubiq.console.ConfigAccess;
import io.qubiq.console.ConfigChanges.ChoiceNeeded;
import io.qubiq.console.ConfigChanges.Invalid;
import io.qubiq.console.ConfigChanges.Outcome;
import io.qubiq.console.ConfigChanges.Written;
import io.qubiq.console.RequestFailure;
import java.io.IOException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;

/**
 * The path every change takes once it has the file's new text, in this order, stopping at the first answer
 * with nothing written: the text validated as a start would validate it ({@link ConfigFile#bind}, the new
 * secrets resolved); for a put, a secret that would be written in clear refused
 * ({@link ChangeSecrets#writtenInClear}); a change that would cost buffered data without the caller's choice
 * asked about ({@link BacklogQuestion}); the new secrets kept in the store; the text committed as a revision
 * on the token the change was made on (a file that moved meanwhile answers Stale). Then the secrets no
 * revision names are forgotten and the change is {@linkplain #applied applied}: handed to the
 * {@link ConfigApplier} with the components it touches, reported in {@link ConfigState}, audited.
 *
 * <p>Threading: called under the configuration writer's lock.
 */
final class ChangeCommit {

    /**
     * The file's new text a change proposes.
     *
     * @param text               the whole file
     * @param entered            the secrets the change enters, to keep in the store
     * @param source             the revision's source: what made it ({@code console}, {@code import}, …)
     * @param refuseClearSecrets whether a secret that would be written in clear is refused (a put)
     */
    record Proposal(String text, NewSecrets entered, String source, boolean refuseClearSecrets) {
    }

    private final ConfigFile file;
    private final ConfigState state;
    private final ConfigApplier applier;
    private final ChangeSecrets secrets;
    private final RevisionViews views;
    private final ChangeAudit audit;

    ChangeCommit(ConfigFile file, ConfigState state, ConfigApplier applier, ChangeSecrets secrets,
                 RevisionViews views, ChangeAudit audit) {
        this.file = file;
        this.state = state;
        this.applier = applier;
        this.secrets = secrets;
        this.views = views;
        this.audit = audit;
    }

    /** Validates, commits on the revision {@code disk} and applies {@code proposal}; see the class doc. */
    Outcome commit(ConfigRevisions revisions, OnDisk disk, LoadedConfig before, Proposal proposal,
                   ChangeAudit.Recorded recorded) {
        LoadedConfig candidate;
        try {
            candidate = file.bind(proposal.text(), proposal.entered());
        } catch (ConfigException e) {
            return ChangeRefusals.invalid("the configuration would not be valid; nothing was written", e);
        }
        LoadedConfig after = before.successor(candidate);
        if (proposal.refuseClearSecrets()) {
            Optional<Invalid> inClear = ChangeSecrets.writtenInClear(before, after);
            if (inClear.isPresent()) {
                return inClear.get();
            }
        }
        Optional<ChoiceNeeded> question = BacklogQuestion.ask(applier, before, after, recorded.choices());
        if (question.isPresent()) {
            return question.get();
        }
        SecretStore secretStore = state.read().file().secrets();
        Optional<Invalid> notKept = ChangeSecrets.keep(proposal.entered(), after, secretStore);
        if (notKept.isPresent()) {
            return notKept.get();
        }
        Revision revision;
        try {
            revision = revisions.commit(proposal.text(), disk.token(), recorded.author().author(), proposal.source(),
                    recorded.comment());
        } catch (StaleRevisionException e) {
            return views.stale(revisions, disk.revision(), new OnDisk(e.currentText(), e.currentToken()));
        } catch (IOException e) {
            throw new RequestFailure.Fault("cannot write the configuration file (nothing changed): " + e.getMessage());
        }
        secrets.forgetUnnamed(revisions, secretStore);
        return applied(before, after, revision, recorded);
    }

    /**
     * Makes the running gateway match {@code after}, written as {@code revision}: the components that differ
     * from {@code before} go to the applier with the recorded choices, {@link ConfigState} learns what runs
     * and what waits, and the change is audited. Nothing is applied or audited when nothing changed and the
     * file was already at {@code revision}.
     */
    Written applied(LoadedConfig before, LoadedConfig after, Revision revision, ChangeAudit.Recorded recorded) {
        String name = OnDisk.revisionOf(revision.token());
        List<ConfigDiff.Change> diff = ConfigDiff.between(before.config(), after.config());
        if (diff.isEmpty() && before.revision().equals(name)) {
            return new Written(name, List.of(), List.of(), List.of());
        }
        ConfigState.Pair now = state.read();
        List<String> components = ConfigState.componentsChanged(before, after);
        ConfigApplier.Applied result = components.isEmpty()
                ? new ConfigApplier.Applied(List.of(), List.of())
                : applier.apply(now.running(), after, new LinkedHashSet<>(components), recorded.choices(),
                        recorded.author().user());
        state.fileChanged(after, result.applied(), result.needRestart());
        List<ConfigAccess.Change> changes = diff.stream()
                .map(c -> new ConfigAccess.Change(c.key(), c.from(), c.to())).toList();
        audit.written(recorded, revision, changes, result);
        return new Written(name, changes, result.applied(), result.needRestart());
    }
}
