package io.qubiq.core.health;

/**
 * The connection monitor's verdict on a device or destination. UNKNOWN (not probed yet, or the
 * probe itself could not decide) counts as UP for gating: the sink's own error is the authority.
 */
public enum ConnectionState {
    UP, DOWN, UNKNOWN;

    /** Whether writes may be attempted: everything but a confirmed DOWN. */
    public boolean allowsAttempts() {
        return this != DOWN;
    }
}
