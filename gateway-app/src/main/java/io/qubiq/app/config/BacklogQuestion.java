package io.qubiq.app.config;

import io.qubiq.console.ConfigChanges;
import io.qubiq.console.ConfigChanges.Backlog;
import io.qubiq.console.ConfigChanges.ChoiceNeeded;
import io.qubiq.console.ConfigChanges.Choices;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The question a configuration change must have answered before it is written, when it would cost buffered
 * data (DESIGN.md: a change "never costs buffered or quarantined data without an explicit, recorded
 * choice"): a {@code max_bytes} lowered below a channel's current backlog needs {@code onShrink}
 * ({@code keep} or {@code drop_oldest}); an outbound connection removed while its channel holds buffered or
 * quarantined items needs {@code onRemove} ({@code drain}, {@code keep_orphan} or {@code discard}). The channels concerned are the {@link ConfigApplier}'s to name
 * ({@link ConfigApplier#backlogsAffected}), measured when the change is made, among the components the
 * change makes differ from the file as it is (so a removal already answered and waiting for a restart is not
 * asked about again at every later change). Stateless.
 */
final class BacklogQuestion {

    private BacklogQuestion() {
    }

    /** Every question {@code after} would ask with no choice given (the dry run's). */
    static List<ChoiceNeeded> all(ConfigApplier applier, LoadedConfig file, LoadedConfig after) {
        List<ChoiceNeeded> questions = new java.util.ArrayList<>();
        ask(applier, file, after, Choices.none()).ifPresent(questions::add);
        ask(applier, file, after, new Choices(Optional.empty(), Optional.of("keep_orphan")))
                .filter(q -> questions.stream().noneMatch(known -> known.field().equals(q.field())))
                .ifPresent(questions::add);
        return questions;
    }

    /** The question, when {@code after} needs a choice that {@code choices} does not hold. */
    static Optional<ChoiceNeeded> ask(ConfigApplier applier, LoadedConfig file, LoadedConfig after,
                                      Choices choices) {
        List<Backlog> affected = applier.backlogsAffected(file, after,
                new LinkedHashSet<>(ConfigState.componentsChanged(file, after)));
        List<Backlog> removed = affected.stream()
                .filter(b -> !after.config().outbound().containsKey(b.connection())).toList();
        List<Backlog> shrunk = affected.stream().filter(b -> !removed.contains(b)).toList();
        if (!removed.isEmpty() && choices.onRemove().isEmpty()) {
            String which = removed.stream().map(b -> "'" + b.connection() + "' holds " + b.bufferedItems()
                    + " undelivered and " + b.quarantinedItems() + " quarantined items").collect(Collectors.joining("; "));
            return Optional.of(new ChoiceNeeded("the outbound connection removed still holds data: " + which
                    + ". Nothing was written. Send the removal again with \"onRemove\": \"drain\" (the connection"
                    + " runs on until everything is delivered and its quarantine is empty, then goes), \"keep_orphan\""
                    + " (it goes now; the data stays and is listed as an orphan, to attach or discard later) or"
                    + " \"discard\" (dropped now and recorded in the loss ledger)", "onRemove",
                    ConfigChanges.Choices.ON_REMOVE, removed));
        }
        if (shrunk.isEmpty() || choices.onShrink().isPresent()) {
            return Optional.empty();
        }
        String which = shrunk.stream().map(b -> "'" + b.connection() + "' holds " + b.bufferedItems() + " items ("
                + b.bufferedBytes() + " bytes), the new max_bytes is " + b.maxBytes())
                .collect(Collectors.joining("; "));
        return Optional.of(new ChoiceNeeded("max_bytes would be below the backlog: " + which + ". Nothing was"
                + " written. Send the change again with \"onShrink\": \"keep\" (the backlog stays and drains;"
                + " new items meet the limit as the overflow policy says) or \"drop_oldest\" (the oldest items"
                + " beyond the limit are dropped now and recorded in the loss ledger)", "onShrink",
                ConfigChanges.Choices.ON_SHRINK, shrunk));
    }
}
