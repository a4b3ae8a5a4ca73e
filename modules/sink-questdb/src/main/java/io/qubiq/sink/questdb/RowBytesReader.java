package io.qubiq.sink.questdb;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Reads the primitives of {@link QuestDbRowCodec}'s layout with bounds checks: every malformed
 * input ends in an {@link IllegalArgumentException}, never an out-of-bounds read or a huge
 * allocation. Strings must be valid UTF-8: ASCII (checked while hashing the bytes) becomes a string
 * directly; anything else goes through a strict decoder, made once per reader and only when needed.
 * Not thread-safe: one per decode, or one per thread {@link #reset} for each row.
 */
final class RowBytesReader {

    private static final VarHandle BIG_ENDIAN_LONG =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private byte[] bytes;
    private final BytesCache<String> repeated;
    private CharsetDecoder strictUtf8;
    private int pos;
    /** Where the row starts in {@link #bytes}: positions in messages count from it. */
    private int base;

    /** @param repeated where {@link #readRepeatedString} keeps and finds its strings */
    RowBytesReader(byte[] bytes, BytesCache<String> repeated) {
        this.bytes = bytes;
        this.repeated = repeated;
    }

    /**
     * Reads {@code bytes} from {@code position} on, as a new reader would (the same cache), for a
     * row that starts at {@code rowStart}: a position in an error message counts from there, as it
     * would for the row's bytes alone.
     */
    RowBytesReader reset(byte[] bytes, int rowStart, int position) {
        this.bytes = bytes;
        this.base = rowStart;
        this.pos = position;
        return this;
    }

    int position() {
        return pos;
    }

    /** Moves past {@code count} bytes that the caller read by other means. */
    void skip(int count) {
        need(count);
        pos += count;
    }

    byte[] bytes() {
        return bytes;
    }

    int readByte() {
        need(1);
        return bytes[pos++];
    }

    long readVarLong() {
        byte[] b = bytes;
        int p = pos;
        if (b.length - p >= 10) {
            // enough bytes for the longest varint: no bounds check per byte, the position in a local
            long value = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                int v = b[p++];
                value |= (long) (v & 0x7F) << shift;
                if (v >= 0) {
                    pos = p;
                    return value;
                }
            }
            throw new IllegalArgumentException("varint longer than 10 bytes at " + (p - base));
        }
        long value = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            int v = readByte();
            value |= (long) (v & 0x7F) << shift;
            if (v >= 0) {
                return value;
            }
        }
        throw new IllegalArgumentException("varint longer than 10 bytes at " + (pos - base));
    }

    long readZigZag() {
        long raw = readVarLong();
        return (raw >>> 1) ^ -(raw & 1);
    }

    long readLong() {
        need(8);
        long value = (long) BIG_ENDIAN_LONG.get(bytes, pos);
        pos += 8;
        return value;
    }

    /** A count of following entries; each takes at least one byte, so more than remain is garbage. */
    int readCount() {
        long count = readVarLong();
        if (count < 0 || count > bytes.length - pos) {
            throw new IllegalArgumentException("implausible count " + count + " at " + (pos - base));
        }
        return (int) count;
    }

    /** A string that is likely to repeat (a name, a symbol value): shared through the cache. */
    String readRepeatedString() {
        int length = readCount();
        need(length);
        int start = pos;
        int hash = 0;
        int highBits = 0;
        for (int i = start; i < start + length; i++) {
            byte b = bytes[i];
            hash = 31 * hash + b;
            highBits |= b;
        }
        String value = repeated.find(bytes, start, length, hash);
        if (value == null) {
            value = decode(start, length, highBits >= 0);
            repeated.keep(bytes, start, length, hash, value);
        }
        pos += length;
        return value;
    }

    /** A string value, decoded afresh. */
    String readString() {
        int length = readCount();
        need(length);
        int start = pos;
        String value = decode(start, length, isAscii(start, length));
        pos += length;
        return value;
    }

    void requireEnd() {
        if (pos != bytes.length) {
            throw new IllegalArgumentException((bytes.length - pos) + " trailing bytes");
        }
    }

    /** Whether {@code bytes[start, start + length)} are all below 0x80. */
    private boolean isAscii(int start, int length) {
        int highBits = 0;
        for (int i = start; i < start + length; i++) {
            highBits |= bytes[i];
        }
        return highBits >= 0;
    }

    private String decode(int start, int length, boolean ascii) {
        if (ascii) {
            return new String(bytes, start, length, StandardCharsets.ISO_8859_1);
        }
        if (strictUtf8 == null) {
            strictUtf8 = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT);
        }
        try {
            return strictUtf8.decode(ByteBuffer.wrap(bytes, start, length)).toString();
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException("malformed UTF-8 at " + (start - base), e);
        }
    }

    private void need(int count) {
        if (count > bytes.length - pos) {
            throw new IllegalArgumentException("truncated at " + (pos - base) + " (needs " + count + " more bytes)");
        }
    }
}
