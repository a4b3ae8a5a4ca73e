package io.qubiq.core.lifecycle;

import java.util.Objects;

/**
 * One part of a running gateway that is down, as /health lists it: the component or connection
 * ({@code channel:db}, {@code device:plc1}), its state ({@code FAILED} for a component that could not
 * start, {@code DOWN} for a disconnected destination or device) and why, in words an operator can act on.
 */
public record DegradedPart(String component, String state, String reason) {

    public DegradedPart {
        Objects.requireNonNull(component, "component");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(reason, "reason");
    }
}
