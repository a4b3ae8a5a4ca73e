package io.qubiq.app.lifecycle;

import io.qubiq.console.GatewayInfo;
import io.qubiq.core.lifecycle.Readiness;
import io.qubiq.console.StatusView;
import io.qubiq.core.lifecycle.ComponentStatus;
import java.util.List;

/** The console's read-only view of the running gateway, backed by the lifecycle. */
public final class GatewayStatus implements StatusView {

    private final GatewayInfo info;
    private final Lifecycle lifecycle;

    public GatewayStatus(GatewayInfo info, Lifecycle lifecycle) {
        this.info = info;
        this.lifecycle = lifecycle;
    }

    @Override
    public GatewayInfo info() {
        return info;
    }

    @Override
    public Readiness readiness() {
        return lifecycle.readiness();
    }

    @Override
    public List<ComponentStatus> components() {
        return lifecycle.statuses();
    }
}
