package io.qubiq.console;

import java.util.List;
import java.util.Optional;

/** The console's access to the pipelines: configuration summary, counters, last errors, enable/disable. */
public interface PipelineAccess {

    /** Every pipeline's status, in configuration order. */
    List<?> pipelines();

    Optional<?> pipeline(String id);

    /**
     * Enables or disables a pipeline (an operator override kept across restarts; audited) and answers
     * its status.
     *
     * @throws ApiError 404 for an unknown pipeline
     */
    Object setEnabled(String id, boolean enabled, String user, String from);
}
