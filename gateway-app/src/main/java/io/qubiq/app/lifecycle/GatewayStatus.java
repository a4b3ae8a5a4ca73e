package io.qubiq.app.lifecycle;

import io.qubiq.console.GatewayInfo;
import io.qubiq.core.lifecycle.ComponentState;
import io.qubiq.core.lifecycle.DegradedPart;
import io.qubiq.core.lifecycle.Readiness;
import io.qubiq.console.StatusView;
import io.qubiq.core.lifecycle.ComponentStatus;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The console's read-only view of the running gateway, backed by the lifecycle and the sources of
 * parts that can be down while the gateway runs. A part is listed once: a component that failed to
 * start wins over the same component's destination being down.
 */
public final class GatewayStatus implements StatusView {

    private final GatewayInfo info;
    private final Lifecycle lifecycle;
    private final List<DegradedPartSource> sources;

    private final java.util.function.Supplier<List<io.qubiq.console.DiskStatus>> disks;

    public GatewayStatus(GatewayInfo info, Lifecycle lifecycle, List<DegradedPartSource> sources) {
        this(info, lifecycle, sources, List::of);
    }

    public GatewayStatus(GatewayInfo info, Lifecycle lifecycle, List<DegradedPartSource> sources,
                         java.util.function.Supplier<List<io.qubiq.console.DiskStatus>> disks) {
        this.info = info;
        this.lifecycle = lifecycle;
        this.sources = List.copyOf(sources);
        this.disks = disks;
    }

    @Override
    public List<io.qubiq.console.DiskStatus> disks() {
        return disks.get();
    }

    @Override
    public GatewayInfo info() {
        return info;
    }

    /**
     * The lifecycle's readiness, except that a gateway whose components started is STARTING while a
     * part is still coming up (a device connection not collecting yet, within its grace); then
     * READY, or DEGRADED while any part is down.
     */
    @Override
    public Readiness readiness() {
        Readiness started = lifecycle.readiness();
        if (started.isRunning() && sources.stream().anyMatch(DegradedPartSource::starting)) {
            return Readiness.STARTING;
        }
        return started.given(!degradedParts().isEmpty());
    }

    @Override
    public List<ComponentStatus> components() {
        return lifecycle.statuses();
    }

    @Override
    public List<DegradedPart> degradedParts() {
        Map<String, DegradedPart> parts = new LinkedHashMap<>();
        for (ComponentStatus status : lifecycle.statuses()) {
            if (status.state() == ComponentState.FAILED) {
                parts.put(status.name(), new DegradedPart(status.name(), ComponentState.FAILED.name(),
                        status.error().orElse("failed")));
            }
        }
        for (DegradedPartSource source : sources) {
            source.degradedParts().forEach(part -> parts.putIfAbsent(part.component(), part));
        }
        return new ArrayList<>(parts.values());
    }
}
