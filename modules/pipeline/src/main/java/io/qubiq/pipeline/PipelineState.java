package io.qubiq.pipeline;

import java.time.Instant;
import java.util.Optional;

/**
 * What a pipeline keeps across restarts: whether it runs (and the configured value that was in
 * force when an operator last chose, so a changed configuration wins again), its lifetime counters,
 * its last error, and, for a timer, when it is next due. Immutable.
 *
 * @param events    events the trigger delivered while the pipeline was enabled
 * @param filtered  events the filter turned away
 * @param failed    events whose filter, transforms or mappings failed to evaluate (nothing submitted)
 * @param emitted   events mapped for every output and handed to the outputs
 * @param refused   items a channel did not take (full with the refuse policy, or not running)
 */
public record PipelineState(boolean enabled, Optional<Boolean> operatorChoiceOver, long events, long filtered,
                            long failed, long emitted, long refused, Optional<String> lastError,
                            Optional<Instant> lastErrorAt, Optional<Instant> lastEventAt, Optional<Instant> nextRunAt) {

    /** A pipeline that never ran. */
    public static PipelineState fresh(boolean enabled) {
        return new PipelineState(enabled, Optional.empty(), 0, 0, 0, 0, 0, Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty());
    }

    /**
     * The state to start with when the configuration says {@code configured}: an operator's choice
     * stands while the configured value is the one it overrode; a changed configuration wins.
     */
    public PipelineState reconciledWith(boolean configured) {
        boolean operatorChoiceStands = operatorChoiceOver.isPresent() && operatorChoiceOver.get() == configured;
        boolean effective = operatorChoiceStands ? enabled : configured;
        return new PipelineState(effective, operatorChoiceStands ? operatorChoiceOver : Optional.empty(), events,
                filtered, failed, emitted, refused, lastError, lastErrorAt, lastEventAt, nextRunAt);
    }
}
