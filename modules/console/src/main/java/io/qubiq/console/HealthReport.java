package io.qubiq.console;

import io.qubiq.core.lifecycle.ComponentStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/** The JSON body of {@code GET /health}. */
record HealthReport(String status, String name, String version, Instant startedAt, long uptimeSeconds,
                    List<Component> components) {

    record Component(String name, String state, Instant since, String error) {
    }

    static HealthReport of(StatusView view, Instant now) {
        GatewayInfo info = view.info();
        List<Component> components = view.components().stream()
                .map(HealthReport::component)
                .toList();
        long uptime = Math.max(0, Duration.between(info.startedAt(), now).toSeconds());
        return new HealthReport(view.readiness().name(), info.name(), info.version(), info.startedAt(), uptime,
                components);
    }

    private static Component component(ComponentStatus status) {
        return new Component(status.name(), status.state().name(), status.since(), status.error().orElse(null));
    }
}
