package io.qubiq.storeforward;

import io.qubiq.core.health.ConnectionState;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A monitor verdict the test sets by hand. */
final class SettableLiveness implements Liveness {

    private volatile ConnectionState state = ConnectionState.UNKNOWN;
    private final List<Runnable> callbacks = new CopyOnWriteArrayList<>();

    @Override
    public ConnectionState state() {
        return state;
    }

    @Override
    public void onChange(Runnable callback) {
        callbacks.add(callback);
    }

    void set(ConnectionState newState) {
        state = newState;
        callbacks.forEach(Runnable::run);
    }
}
