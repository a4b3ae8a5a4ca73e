package io.qubiq.console;

import java.util.List;
import java.util.Optional;

/** The console's read access to the pipelines: their configuration summary, counters and last errors. */
public interface PipelineAccess {

    /** Every pipeline's status, in configuration order. */
    List<?> pipelines();

    Optional<?> pipeline(String id);
}
