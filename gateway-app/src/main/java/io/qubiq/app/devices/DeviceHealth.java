package io.qubiq.app.devices;

import io.qubiq.app.lifecycle.DegradedPartSource;
import io.qubiq.core.connector.DeviceConnector;
import io.qubiq.core.health.ConnectionState;
import io.qubiq.core.health.ConnectionStatus;
import io.qubiq.core.lifecycle.DegradedPart;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The device connections as /health sees them: each one that failed to start (FAILED), is
 * disconnected (DOWN, with its last error), or is connected but not collecting (its subscriptions
 * are not in place) is a degraded part named {@code device:<id>}. Readiness means collecting
 * ({@link DeviceReadiness}): while a connection has neither been collecting nor failed its first
 * attempt, within {@code lifecycle.readiness_grace_ms} of start, {@link #starting} is true and the
 * gateway is STARTING; the connection is listed as STARTING, and past the grace as NOT_SUBSCRIBED.
 *
 * <p>Reads the connectors' state when asked; holds none of its own. Safe from any thread.
 */
final class DeviceHealth implements DegradedPartSource {

    private final Map<String, DeviceConnections.Entry> entries;
    private final ConnectorLifecycle lifecycle;
    private final DeviceReadiness readiness;

    DeviceHealth(Map<String, DeviceConnections.Entry> entries, ConnectorLifecycle lifecycle, DeviceReadiness readiness) {
        this.entries = entries;
        this.lifecycle = lifecycle;
        this.readiness = readiness;
    }

    /**
     * Each connection that failed to start (FAILED), is disconnected (DOWN), is still coming up within
     * the readiness grace (STARTING) or is not collecting although connected or past the grace
     * (NOT_SUBSCRIBED), named {@code device:<id>}.
     */
    @Override
    public List<DegradedPart> degradedParts() {
        List<DegradedPart> parts = new ArrayList<>();
        entries.keySet().stream().sorted().forEach(id -> {
            Optional<String> failure = lifecycle.startFailure(id);
            if (failure.isPresent()) {
                parts.add(new DegradedPart("device:" + id, "FAILED", failure.get()));
                return;
            }
            DeviceConnector connector = entries.get(id).connector();
            boolean settled = readiness.settled(id, connector);
            ConnectionStatus status = connector.status();
            if (status.state() == ConnectionState.DOWN) {
                parts.add(new DegradedPart("device:" + id, ConnectionState.DOWN.name(), "disconnected since "
                        + status.since() + ": " + status.lastError().orElse("no answer")));
            } else if (!connector.subscribed()) {
                parts.add(notCollecting(id, settled, status));
            }
        });
        return parts;
    }

    private DegradedPart notCollecting(String id, boolean settled, ConnectionStatus status) {
        String error = status.lastError().map(e -> ": " + e).orElse("");
        if (!settled && readiness.withinGrace(id)) {
            return new DegradedPart("device:" + id, "STARTING", "connecting and subscribing; readiness waits up to "
                    + readiness.grace().toMillis() + " ms (lifecycle.readiness_grace_ms) for its first attempt");
        }
        if (!settled) {
            return new DegradedPart("device:" + id, "NOT_SUBSCRIBED", "not collecting "
                    + readiness.elapsed(id).toSeconds() + " s after " + (readiness.isChangedLive(id)
                    ? "it was changed" : "start")
                    + (error.isEmpty() ? ": no answer from the device yet" : error));
        }
        return new DegradedPart("device:" + id, "NOT_SUBSCRIBED", "connected but not collecting: its subscriptions"
                + " are not in place" + error);
    }

    /**
     * Whether start-up has settled: the connections were started and none is still {@link #starting}.
     * Lock-free: a channel's forwarder asks it while it holds a backlog back ({@code holdBacklogUntil}).
     */
    boolean startUpSettled() {
        return readiness.hasStarted() && !starting();
    }

    /**
     * Whether some connection has neither been collecting nor failed its first attempt, and the
     * readiness grace has not run out: the gateway is not ready yet.
     */
    @Override
    public boolean starting() {
        if (!readiness.hasStarted() || !readiness.withinGrace()) {
            return false; // not started (the lifecycle says STARTING) or waited long enough
        }
        for (Map.Entry<String, DeviceConnections.Entry> entry : entries.entrySet()) {
            if (readiness.isChangedLive(entry.getKey())) {
                continue; // changed while running: its own STARTING part, not the gateway's readiness
            }
            if (lifecycle.startFailure(entry.getKey()).isEmpty() && !readiness.settled(entry.getKey(),
                    entry.getValue().connector())) {
                return true;
            }
        }
        return false;
    }
}
