package io.qubiq.app.devices;

import io.qubiq.console.DeviceAccess.Device;
import io.qubiq.console.RequestFailure;
import io.qubiq.core.connector.Browsable;
import io.qubiq.core.connector.BrowseNode;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;

/**
 * What the console shows of the device connections: each one's kind, status, counters, tag count
 * and warnings, and the address space of a connection whose connector can be browsed
 * ({@link Browsable}). A browse of an unknown connection is NOT_FOUND; of one without an address
 * space, an invalid request. Reads the connectors when asked; safe from any thread.
 */
final class DeviceViews {

    private final Map<String, DeviceConnections.Entry> entries;

    private final Predicate<String> keepsCertificates;

    /** @param keepsCertificates whether a connection has certificates to show ({@link OpcUaCertificates}) */
    DeviceViews(Map<String, DeviceConnections.Entry> entries, Predicate<String> keepsCertificates) {
        this.keepsCertificates = keepsCertificates;
        this.entries = entries;
    }

    List<Device> devices() {
        return entries.keySet().stream().sorted().map(this::view).toList();
    }

    Optional<Device> device(String id) {
        return Optional.ofNullable(entries.get(id)).map(entry -> view(id));
    }

    private Device view(String id) {
        DeviceConnections.Entry entry = entries.get(id);
        return new Device(id, entry.type(), entry.connector().status(), entry.connector().counters(),
                entry.tags().size(), entry.connector() instanceof Browsable, keepsCertificates.test(id),
                entry.connector().warnings());
    }

    CompletableFuture<List<BrowseNode>> browse(String connectionId, String nodeId) {
        DeviceConnections.Entry entry = entries.get(connectionId);
        if (entry == null) {
            throw new RequestFailure.NotFound("no device connection '" + connectionId + "'");
        }
        if (!(entry.connector() instanceof Browsable browsable)) {
            throw new RequestFailure.InvalidRequest("device connection '" + connectionId + "' (" + entry.type()
                    + ") has no address space to browse");
        }
        return browsable.browse(nodeId);
    }
}
