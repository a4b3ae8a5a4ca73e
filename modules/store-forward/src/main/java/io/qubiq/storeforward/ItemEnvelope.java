package io.qubiq.storeforward;

import java.util.Arrays;
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
 *
 * @param bytes      the item from {@code itemOffset} to the end: the whole stored payload for an
 *                   envelope that was {@linkplain #decode decoded} (the item is not copied out of
 *                   it), the bare item otherwise
 * @param itemOffset where the item starts in {@code bytes}: {@link #HEADER_BYTES} or 0
 */
record ItemEnvelope(int attempts, long firstFailureMillis, byte[] bytes, int itemOffset) {

    static final byte FORMAT = 1;
    static final int HEADER_BYTES = 11;

    ItemEnvelope(int attempts, long firstFailureMillis, byte[] item) {
        this(attempts, firstFailureMillis, item, 0);
    }

    static ItemEnvelope fresh(byte[] item) {
        return new ItemEnvelope(0, 0, item);
    }

    /** The item's bytes: its own array (a copy, for a decoded envelope). */
    byte[] item() {
        return itemOffset == 0 ? bytes : Arrays.copyOfRange(bytes, itemOffset, bytes.length);
    }

    int itemLength() {
        return bytes.length - itemOffset;
    }

    byte[] encode() {
        return wrap(attempts, firstFailureMillis, bytes, itemOffset);
    }

    /** The envelope bytes of {@code item} with this history, without making an envelope first. */
    static byte[] wrap(int attempts, long firstFailureMillis, byte[] item) {
        return wrap(attempts, firstFailureMillis, item, 0);
    }

    private static byte[] wrap(int attempts, long firstFailureMillis, byte[] source, int from) {
        byte[] out = new byte[HEADER_BYTES + source.length - from];
        out[0] = FORMAT;
        int saturated = Math.min(attempts, 0xFFFF);
        out[1] = (byte) (saturated >>> 8);
        out[2] = (byte) saturated;
        for (int i = 0; i < 8; i++) {
            out[3 + i] = (byte) (firstFailureMillis >>> (56 - 8 * i));
        }
        System.arraycopy(source, from, out, HEADER_BYTES, source.length - from);
        return out;
    }

    /** The envelope stored as {@code payload}; its item stays in {@code payload}, at {@link #HEADER_BYTES}. */
    static Optional<ItemEnvelope> decode(byte[] payload) {
        if (payload.length < HEADER_BYTES || payload[0] != FORMAT) {
            return Optional.empty();
        }
        int attempts = ((payload[1] & 0xFF) << 8) | (payload[2] & 0xFF);
        long firstFailure = 0;
        for (int i = 3; i < HEADER_BYTES; i++) {
            firstFailure = (firstFailure << 8) | (payload[i] & 0xFF);
        }
        return Optional.of(new ItemEnvelope(attempts, firstFailure, payload, HEADER_BYTES));
    }
}
