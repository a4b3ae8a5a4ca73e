package io.qubiq.app.pipelines;

import io.qubiq.app.lifecycle.DegradedPartSource;
import io.qubiq.console.PipelineAccess;
import io.qubiq.console.RequestFailure;
import io.qubiq.core.event.AuditAction;
import io.qubiq.core.event.AuditEvent;
import io.qubiq.core.event.EventPublisher;
import io.qubiq.core.lifecycle.DegradedPart;
import io.qubiq.pipeline.PipelineStatus;
import io.qubiq.pipeline.Pipelines;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The console's view of the pipelines (empty when none are configured), the audited enable/disable, and
 * each pipeline that failed to start, or whose MQTT trigger's thread failed and is being restarted, as a
 * FAILED part ({@code pipeline:<id>}) for /health.
 */
public final class PipelinesAccess implements PipelineAccess, DegradedPartSource {

    private final Optional<Pipelines> pipelines;
    private final EventPublisher events;
    private final Clock clock;

    public PipelinesAccess(Optional<Pipelines> pipelines, EventPublisher events, Clock clock) {
        this.pipelines = pipelines;
        this.events = events;
        this.clock = clock;
    }

    @Override
    public List<Pipeline> pipelines() {
        return pipelines.map(all -> all.statuses().stream().map(PipelinesAccess::report).toList()).orElse(List.of());
    }

    @Override
    public Optional<Pipeline> pipeline(String id) {
        return pipelines.flatMap(all -> all.status(id)).map(PipelinesAccess::report);
    }

    @Override
    public List<DegradedPart> degradedParts() {
        List<DegradedPart> parts = new java.util.ArrayList<>(pipelines.map(Pipelines::failures).orElse(Map.of())
                .entrySet().stream()
                .sorted(Map.Entry.comparingByKey())
                .map(failure -> new DegradedPart("pipeline:" + failure.getKey(), "FAILED", failure.getValue()))
                .toList());
        pipelines.map(Pipelines::failingTriggers).orElse(Map.of()).forEach((id, error) -> parts.add(
                new DegradedPart("pipeline:" + id, "FAILED", "trigger thread failed (" + error
                        + "); restarting it with backoff")));
        return parts;
    }

    @Override
    public Pipeline setEnabled(String id, boolean enabled, String user, String from) {
        Pipelines all = pipelines.filter(p -> p.status(id).isPresent())
                .orElseThrow(() -> new RequestFailure.NotFound("no pipeline '" + id + "'"));
        PipelineStatus status = all.enable(id, enabled);
        events.audit(new AuditEvent(clock.instant(), user, enabled ? AuditAction.PIPELINE_ENABLE
                : AuditAction.PIPELINE_DISABLE, "pipeline/" + id, enabled ? "enabled" : "disabled",
                Map.of(AuditAction.DETAIL_FROM, from)));
        return report(status);
    }

    /** The pipeline's own status as the console's API record, field by field. */
    static Pipeline report(PipelineStatus s) {
        return new Pipeline(s.id(), s.enabled(), s.trigger(), s.events(), s.filtered(), s.failed(), s.emitted(),
                s.refused(), s.dropped(), s.lastError(), s.lastErrorAt(), s.lastEventAt(),
                s.outputs().stream().map(o -> new Output(o.connection(), o.submitted(), o.refused())).toList());
    }
}
