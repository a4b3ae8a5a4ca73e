package io.qubiq.core.connector;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/** A device connection whose address space can be browsed one level at a time (OPC UA). */
public interface Browsable {

    /**
     * The children of {@code nodeId}; an empty id means the device's root (for OPC UA, the Objects
     * folder). Fails with a typed exception when the connection is down or the node is unknown.
     */
    CompletableFuture<List<BrowseNode>> browse(String nodeId);
}
