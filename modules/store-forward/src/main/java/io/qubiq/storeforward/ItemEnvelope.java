package io.qubiq.storeforward;

import java.nio.ByteBuffer;
import java.util.Optional;

/**
 * How a channel wraps an item before it goes into the durable buffer: a little delivery history
 * travels with the item, so a write that already failed before it was buffered (on the fast path)
 * keeps its attempt count.
 *
 * <pre>
 * offset  size  field
 * 0       1     format (1)
 * 1       2     attempts already made (unsigned short)
 * 3       8     first failure, epoch millis (0 = none yet)
 * 11      n     the item as the sink's codec encoded it
 * </pre>
 *
 * A payload that is too short or has another format byte is not an envelope; the forwarder
 * quarantines such a record with its raw bytes instead of stalling on it.
 */
record ItemEnvelope(int attempts, long firstFailureMillis, byte[] item) {

    static final byte FORMAT = 1;
    static final int HEADER_BYTES = 11;

    static ItemEnvelope fresh(byte[] item) {
        return new ItemEnvelope(0, 0, item);
    }

    byte[] encode() {
        ByteBuffer buffer = ByteBuffer.allocate(HEADER_BYTES + item.length);
        buffer.put(FORMAT);
        buffer.putShort((short) Math.min(attempts, 0xFFFF));
        buffer.putLong(firstFailureMillis);
        buffer.put(item);
        return buffer.array();
    }

    static Optional<ItemEnvelope> decode(byte[] payload) {
        if (payload.length < HEADER_BYTES || payload[0] != FORMAT) {
            return Optional.empty();
        }
        ByteBuffer buffer = ByteBuffer.wrap(payload);
        buffer.get();
        int attempts = Short.toUnsignedInt(buffer.getShort());
        long firstFailure = buffer.getLong();
        byte[] item = new byte[payload.length - HEADER_BYTES];
        buffer.get(item);
        return Optional.of(new ItemEnvelope(attempts, firstFailure, item));
    }
}
