package io.qubiq.storeforward;

import io.qubiq.core.health.ConnectionState;

/**
 * The connection monitor's verdict on one destination, as a forwarder consults it: DOWN gates it,
 * anything else lets it try. {@link #onChange} is how the forwarder learns, without polling, that
 * the destination is back.
 */
public interface Liveness {

    ConnectionState state();

    /** Registers a callback run (on the monitor's thread) after every state change. */
    void onChange(Runnable callback);

    /** Always UNKNOWN, which counts as UP: for channels without a monitor. */
    static Liveness alwaysUnknown() {
        return new Liveness() {
            @Override
            public ConnectionState state() {
                return ConnectionState.UNKNOWN;
            }

            @Override
            public void onChange(Runnable callback) {
            }
        };
    }
}
