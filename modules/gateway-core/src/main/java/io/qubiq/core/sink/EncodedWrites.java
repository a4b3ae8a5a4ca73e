package io.qubiq.core.sink;

import io.qubiq.core.error.GatewayException;
import java.util.List;

/**
 * What a {@link Sink} implements when it can write items straight from the bytes its channel's
 * {@link ItemCodec} made, without decoding them into objects first. The store-and-forward
 * forwarder then hands it the items it reads back from the buffer as bytes, after the codec's
 * {@link ItemCodec#validate} accepted each one (an item that fails is quarantined as undecodable,
 * as before); items written on the fast path still go through {@link Sink#write}.
 *
 * <p>The contract is {@link Sink#write}'s, item for item: {@code writeEncoded(encoded items)} must
 * write, flush and fail exactly as {@code write(decoded items)} would, and a rejected item's index
 * is its position in {@code items}. Threading as {@link Sink#write}.
 */
public interface EncodedWrites {

    /**
     * Writes and flushes every item of {@code items}, each the bytes of {@link ItemCodec#encode}
     * that {@link ItemCodec#validate} accepted.
     */
    void writeEncoded(List<byte[]> items) throws GatewayException;
}
