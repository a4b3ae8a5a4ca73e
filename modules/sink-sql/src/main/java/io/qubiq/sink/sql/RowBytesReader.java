package io.qubiq.sink.sql;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads the primitives of {@link SqlRowCodec}'s layout with bounds checks: every malformed input
 * ends in an {@link IllegalArgumentException}, never an out-of-bounds read, a huge allocation or a
 * silently replaced character. Not thread-safe; one per decode.
 */
final class RowBytesReader {

    private final byte[] bytes;
    private int pos;

    RowBytesReader(byte[] bytes) {
        this.bytes = bytes;
    }

    int readByte() {
        need(1);
        return bytes[pos++];
    }

    long readVarLong() {
        long value = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            int b = readByte();
            value |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return value;
            }
        }
        throw new IllegalArgumentException("varint longer than 10 bytes at " + pos);
    }

    long readZigZag() {
        long raw = readVarLong();
        return (raw >>> 1) ^ -(raw & 1);
    }

    int readZigZagInt() {
        long value = readZigZag();
        if (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("int out of range at " + pos + ": " + value);
        }
        return (int) value;
    }

    long readLong() {
        need(8);
        long value = 0;
        for (int i = 0; i < 8; i++) {
            value = (value << 8) | (bytes[pos++] & 0xFF);
        }
        return value;
    }

    /** A count of following entries; each takes at least one byte, so more than remain is garbage. */
    int readCount() {
        long count = readVarLong();
        if (count < 0 || count > bytes.length - pos) {
            throw new IllegalArgumentException("implausible count " + count + " at " + pos);
        }
        return (int) count;
    }

    byte[] readBytes() {
        int length = readCount();
        byte[] value = Arrays.copyOfRange(bytes, pos, pos + length);
        pos += length;
        return value;
    }

    String readString() {
        return readString(null, null);
    }

    /**
     * A string; when its bytes equal {@code knownBytes} (the UTF-8 of {@code knownText}, a string
     * read before) that same instance is returned instead of a new one.
     */
    String readString(String knownText, byte[] knownBytes) {
        int length = readCount();
        int start = pos;
        if (knownBytes != null && knownBytes.length == length
                && Arrays.equals(bytes, start, start + length, knownBytes, 0, length)) {
            pos += length;
            return knownText;
        }
        boolean ascii = true;
        for (int i = start; i < start + length; i++) {
            if (bytes[i] < 0) {
                ascii = false;
                break;
            }
        }
        pos += length;
        if (ascii) {
            return new String(bytes, start, length, StandardCharsets.ISO_8859_1);
        }
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes, start, length)).toString();
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException("malformed UTF-8 at " + start, e);
        }
    }

    void requireEnd() {
        if (pos != bytes.length) {
            throw new IllegalArgumentException((bytes.length - pos) + " trailing bytes");
        }
    }

    private void need(int count) {
        if (count > bytes.length - pos) {
            throw new IllegalArgumentException("truncated at " + pos + " (needs " + count + " more bytes)");
        }
    }
}
