package io.qubiq.console;

import io.qubiq.core.connector.BrowseNode;
import io.qubiq.core.connector.TagWriteResult;
import io.qubiq.core.health.ConnectionStatus;
import io.qubiq.core.tag.TagPath;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * What the console may do with device connections. The application implements it over its
 * connectors; the console never sees a concrete connector class.
 */
public interface DeviceAccess {

    /** A device connection as the console shows it. */
    record Device(String id, String type, ConnectionStatus status, Map<String, Long> counters, int tags,
                  boolean browsable) {
    }

    List<Device> devices();

    Optional<Device> device(String id);

    /**
     * Browses one level of a device's address space.
     *
     * @throws ApiError 404 for an unknown connection, 400 when it cannot be browsed
     */
    CompletableFuture<List<BrowseNode>> browse(String connectionId, String nodeId);

    /**
     * Writes a value straight to the device that owns {@code tag} (never buffered) and records the
     * action in the audit journal as {@code user}.
     *
     * @throws ApiError 404 for a tag no connection owns
     */
    CompletableFuture<TagWriteResult> write(TagPath tag, Object value, String user);
}
