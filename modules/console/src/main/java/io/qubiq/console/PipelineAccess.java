package io.qubiq.console;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The console's access to the pipelines: configuration summary, counters, last errors, enable/disable.
 * The application implements it and answers with the records declared here, which are the API's JSON.
 */
public interface PipelineAccess {

    /**
     * A pipeline as the console shows it.
     *
     * @param trigger what runs it, in words ({@code tag plant/oven/*}, {@code every 5 s}, ...)
     * @param dropped trigger values discarded because the pipeline fell behind its tag-bus queue
     *                (since this start); the other counters are lifetime totals kept across restarts
     * @param outputs per output: what was submitted to its connection's channel and what was refused
     */
    record Pipeline(String id, boolean enabled, String trigger, long events, long filtered, long failed, long emitted,
                    long refused, long dropped, Optional<String> lastError, Optional<Instant> lastErrorAt,
                    Optional<Instant> lastEventAt, List<Output> outputs) {
        public Pipeline {
            outputs = List.copyOf(outputs);
        }
    }

    /** One output's totals. */
    record Output(String connection, long submitted, long refused) {
    }

    /** Every pipeline's status, in configuration order. */
    List<Pipeline> pipelines();

    Optional<Pipeline> pipeline(String id);

    /**
     * Enables or disables a pipeline (an operator override kept across restarts; audited) and answers
     * its status.
     *
     * @throws RequestFailure.NotFound for an unknown pipeline
     */
    Pipeline setEnabled(String id, boolean enabled, String user, String from);
}
