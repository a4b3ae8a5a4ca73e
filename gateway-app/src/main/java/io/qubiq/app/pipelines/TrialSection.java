package io.qubiq.app.pipelines;

import io.qubiq.core.config.Default;
import io.qubiq.core.config.Doc;
import io.qubiq.pipeline.config.PipelineConfig;
import java.util.Map;

/**
 * The root a tried pipeline is bound under: only {@code pipelines}, so the binder reports each problem at
 * the key path it would have in the file ({@code pipelines.<id>.trigger}) and runs the same checks.
 */
@Doc("The pipelines section alone, for trying one pipeline.")
record TrialSection(
        @Doc("Pipelines by id.")
        @Default("{}")
        Map<String, PipelineConfig> pipelines) {
}
