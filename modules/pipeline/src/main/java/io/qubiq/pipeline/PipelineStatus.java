package io.qubiq.pipeline;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * A pipeline as the API and console show it. Immutable snapshot. {@code dropped} counts trigger
 * values discarded because the pipeline fell behind its tag bus queue (since this start); the other
 * counters are lifetime totals kept across restarts.
 */
public record PipelineStatus(String id, boolean enabled, String trigger, long events, long filtered, long failed,
                             long emitted, long refused, long dropped, Optional<String> lastError, Optional<Instant> lastErrorAt,
                             Optional<Instant> lastEventAt, List<PipelineOutput.OutputCounts> outputs) {
}
