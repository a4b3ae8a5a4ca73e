package io.qubiq.app.lifecycle;

import io.qubiq.core.lifecycle.Component;
import io.qubiq.core.lifecycle.ComponentState;
import io.qubiq.core.lifecycle.ComponentStatus;
import java.time.Clock;
import java.util.List;
import java.util.Optional;

/**
 * One component, whether the gateway can run without it (isolated), the components it needs, and its
 * current status. Written only by the lifecycle thread; read by anyone (the status is one volatile
 * immutable record, so readers never see a torn state).
 */
final class ComponentSlot {

    private final Component component;
    private final boolean isolated;
    private final List<String> needs;
    private final Clock clock;
    private volatile ComponentStatus status;

    ComponentSlot(Component component, boolean isolated, List<String> needs, Clock clock) {
        this.component = component;
        this.isolated = isolated;
        this.needs = List.copyOf(needs);
        this.clock = clock;
        this.status = new ComponentStatus(component.name(), ComponentState.NEW, clock.instant(), Optional.empty());
    }

    Component component() {
        return component;
    }

    String name() {
        return component.name();
    }

    boolean isolated() {
        return isolated;
    }

    /** The names of the components that must have started before this one can. */
    List<String> needs() {
        return needs;
    }

    ComponentStatus status() {
        return status;
    }

    void moveTo(ComponentState state) {
        status = new ComponentStatus(component.name(), state, clock.instant(), Optional.empty());
    }

    void fail(String reason) {
        status = new ComponentStatus(component.name(), ComponentState.FAILED, clock.instant(), Optional.of(reason));
    }
}
