package io.qubiq.console;

import io.qubiq.core.lifecycle.ComponentStatus;
import io.qubiq.core.lifecycle.DegradedPart;
import io.qubiq.core.lifecycle.Readiness;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The JSON body of {@code GET /health}. The status is derived from the parts listed in the same
 * body, so a DEGRADED report always names at least one part and a READY one none. A STARTING report
 * lists the parts not up yet (a device connection still connecting and subscribing).
 */
record HealthReport(String status, String name, String version, Instant startedAt, long uptimeSeconds,
                    List<DegradedPart> parts, List<Component> components, List<Disk> disks) {

    /**
     * One watched directory's free space; {@code freePercent} rounded to a tenth; {@code usedBytes}
     * what the directory holds where it is measured (the embedded QuestDB's), else null.
     */
    record Disk(String path, String state, long freeBytes, long totalBytes, double freePercent, @MayBeNull Long usedBytes) {
    }

    record Component(String name, String state, Instant since, @MayBeNull String error) {
    }

    static HealthReport of(StatusView view, Instant now) {
        GatewayInfo info = view.info();
        List<DegradedPart> parts = view.degradedParts();
        Readiness readiness = view.readiness().given(!parts.isEmpty());
        List<Component> components = view.components().stream()
                .map(HealthReport::component)
                .toList();
        long uptime = Math.max(0, Duration.between(info.startedAt(), now).toSeconds());
        return new HealthReport(readiness.name(), info.name(), info.version(), info.startedAt(), uptime,
                readiness.isRunning() || readiness == Readiness.STARTING ? parts : List.of(), components, view.disks().stream()
                        .map(d -> new Disk(d.path(), d.state(), d.freeBytes(), d.totalBytes(),
                                Math.round(d.freePercent() * 10) / 10.0, d.usedBytes().orElse(null)))
                        .toList());
    }

    /** 200 while the gateway runs (READY or DEGRADED), 503 while it starts, stops or has failed. */
    boolean running() {
        return Readiness.valueOf(status).isRunning();
    }

    private static Component component(ComponentStatus status) {
        return new Component(status.name(), status.state().name(), status.since(), status.error().orElse(null));
    }
}
