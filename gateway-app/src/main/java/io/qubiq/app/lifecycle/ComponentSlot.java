package io.qubiq.app.lifecycle;

import io.qubiq.core.lifecycle.Component;
import io.qubiq.core.lifecycle.ComponentState;
import io.qubiq.core.lifecycle.ComponentStatus;
import java.time.Clock;
import java.util.Optional;

/**
 * One component and its current status. Written only by the lifecycle thread; read by anyone (the
 * status is one volatile immutable record, so readers never see a torn state).
 */
final class ComponentSlot {

    private final Component component;
    private final Clock clock;
    private volatile ComponentStatus status;

    ComponentSlot(Component component, Clock clock) {
        this.component = component;
        this.clock = clock;
        this.status = new ComponentStatus(component.name(), ComponentState.NEW, clock.instant(), Optional.empty());
    }

    Component component() {
        return component;
    }

    String name() {
        return component.name();
    }

    ComponentStatus status() {
        return status;
    }

    void moveTo(ComponentState state) {
        status = new ComponentStatus(component.name(), state, clock.instant(), Optional.empty());
    }

    void fail(Throwable error) {
        String message = error.getMessage() != null ? error.getMessage() : error.getClass().getSimpleName();
        status = new ComponentStatus(component.name(), ComponentState.FAILED, clock.instant(), Optional.of(message));
    }
}
