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
 * ({@code keep} or {@code drop_oldest}). The channels concerned are the {@link ConfigApplier}'s to name
 * ({@link ConfigApplier#backlogsAffected}), measured when the change is made. Stateless.
 */
final class BacklogQuestion {

    private BacklogQuestion() {
    }

    /** The question, when {@code after} needs a choice that {@code choices} does not hold. */
    static Optional<ChoiceNeeded> ask(ConfigApplier applier, LoadedConfig running, LoadedConfig after,
                                      Choices choices) {
        if (choices.onShrink().isPresent()) {
            return Optional.empty();
        }
        List<Backlog> shrunk = applier.backlogsAffected(running, after,
                new LinkedHashSet<>(ConfigState.componentsChanged(running, after)));
        if (shrunk.isEmpty()) {
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
