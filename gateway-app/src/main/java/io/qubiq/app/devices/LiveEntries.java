package io.qubiq.app.devices;

import java.util.AbstractMap;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The device connections as they run now, in configured order: a read-only map that every part of
 * {@link DeviceConnections} reads, whose contents change when a connection is added, replaced or
 * removed while the gateway runs. Each change installs a new snapshot, so a reader iterating sees
 * one consistent set of connections, never a half-made change.
 *
 * <p>Threading: reads from any thread; {@link #install} and {@link #withdraw} are called with
 * {@link DeviceConnections}'s lock held.
 */
final class LiveEntries extends AbstractMap<String, DeviceConnections.Entry> {

    private volatile Map<String, DeviceConnections.Entry> snapshot;

    LiveEntries(Map<String, DeviceConnections.Entry> initial) {
        this.snapshot = Collections.unmodifiableMap(new LinkedHashMap<>(initial));
    }

    @Override
    public Set<Map.Entry<String, DeviceConnections.Entry>> entrySet() {
        return snapshot.entrySet();
    }

    @Override
    public DeviceConnections.Entry get(Object id) {
        return snapshot.get(id);
    }

    @Override
    public boolean containsKey(Object id) {
        return snapshot.containsKey(id);
    }

    /** Adds connection {@code id}, or replaces it where it was. */
    void install(String id, DeviceConnections.Entry entry) {
        Map<String, DeviceConnections.Entry> next = new LinkedHashMap<>(snapshot);
        next.put(id, entry);
        snapshot = Collections.unmodifiableMap(next);
    }

    /** Removes connection {@code id}; nothing when there is none. */
    void withdraw(String id) {
        Map<String, DeviceConnections.Entry> next = new LinkedHashMap<>(snapshot);
        next.remove(id);
        snapshot = Collections.unmodifiableMap(next);
    }
}
