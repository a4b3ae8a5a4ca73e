package io.qubiq.app.pipelines;

import io.qubiq.console.PipelineAccess;
import io.qubiq.pipeline.Pipelines;
import java.util.List;
import java.util.Optional;

/** The console's view of the pipelines; empty when none are configured. */
public final class PipelinesAccess implements PipelineAccess {

    private final Optional<Pipelines> pipelines;

    public PipelinesAccess(Optional<Pipelines> pipelines) {
        this.pipelines = pipelines;
    }

    @Override
    public List<?> pipelines() {
        return pipelines.map(Pipelines::statuses).orElse(List.of());
    }

    @Override
    public Optional<?> pipeline(String id) {
        return pipelines.flatMap(all -> all.status(id));
    }
}
