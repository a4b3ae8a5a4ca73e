package io.qubiq.core.sink;

import io.qubiq.core.error.GatewayException;
import io.qubiq.core.error.PermanentException;
import java.util.List;

/**
 * What a {@link Sink} implements when it can write items straight from the bytes its channel's
 * {@link ItemCodec} made, without decoding them into objects first. The store-and-forward
 * forwarder then hands it the items it reads back from the buffer as bytes; items written on the
 * fast path still go through {@link Sink#write}.
 *
 * <p>The items are not checked beforehand (the buffer's checksum only proves they are the bytes
 * that were stored): the sink reads each one as it writes it and must refuse an item its codec
 * would refuse ({@link ItemCodec#decode} failing) with {@link #undecodable}, before anything of
 * the batch is sent. The forwarder then quarantines exactly that item, as "cannot be decoded for
 * this destination" with its bytes, and writes the others again. Checking while writing costs one
 * reading of each item instead of two (a check on the read-ahead thread, then the write).
 *
 * <p>Otherwise the contract is {@link Sink#write}'s, item for item: {@code writeEncoded(encoded
 * items)} must write, flush and fail exactly as {@code write(decoded items)} would, and a rejected
 * item's index is its position in {@code items}. Threading as {@link Sink#write}.
 */
public interface EncodedWrites {

    /** The quarantine reason of an item that its codec cannot decode. */
    String UNDECODABLE = "cannot be decoded for this destination";

    /**
     * Writes and flushes every item of {@code items}, each meant to be the bytes of {@link
     * ItemCodec#encode}; fails with {@link #undecodable} for the first that is not.
     */
    void writeEncoded(EncodedItems items) throws GatewayException;

    /** {@link #writeEncoded(EncodedItems)} of items that are whole arrays. */
    default void writeEncoded(List<byte[]> items) throws GatewayException {
        writeEncoded(EncodedItems.of(items));
    }

    /**
     * The failure of a batch whose item {@code index} its codec refused ({@code cause}, from
     * {@link ItemCodec#decode} or {@link ItemCodec#validate}): nothing of the batch was written.
     */
    static PermanentException undecodable(int index, PermanentException cause) {
        return new PermanentException("item " + index + " of the batch: " + cause.getMessage(),
                List.of(new PermanentException.RejectedItem(index, UNDECODABLE)), cause);
    }
}
