package io.qubiq.sink.sql;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Appends the primitives of {@link SqlRowCodec}'s layout to a growable array: unsigned LEB128
 * varints, zigzag for signed values, big-endian 8-byte longs, and strings as a varint byte length
 * plus UTF-8. Not thread-safe; one per encode.
 */
final class RowBytesWriter {

    private byte[] bytes;
    private int size;

    RowBytesWriter(int expectedSize) {
        this.bytes = new byte[Math.max(16, expectedSize)];
    }

    void writeByte(int b) {
        ensure(1);
        bytes[size++] = (byte) b;
    }

    /** Unsigned LEB128: seven bits a byte, low bits first, high bit set on all but the last. */
    void writeVarLong(long value) {
        ensure(10);
        while ((value & ~0x7FL) != 0) {
            bytes[size++] = (byte) ((value & 0x7F) | 0x80);
            value >>>= 7;
        }
        bytes[size++] = (byte) value;
    }

    void writeZigZag(long value) {
        writeVarLong((value << 1) ^ (value >> 63));
    }

    void writeLong(long value) {
        ensure(8);
        for (int shift = 56; shift >= 0; shift -= 8) {
            bytes[size++] = (byte) (value >>> shift);
        }
    }

    /** A varint length and the bytes (a string's UTF-8 the caller already has, a BigInteger's). */
    void writeBytes(byte[] value) {
        writeVarLong(value.length);
        ensure(value.length);
        System.arraycopy(value, 0, bytes, size, value.length);
        size += value.length;
    }

    void writeString(String value) {
        writeBytes(value.getBytes(StandardCharsets.UTF_8));
    }

    byte[] toByteArray() {
        return Arrays.copyOf(bytes, size);
    }

    private void ensure(int more) {
        if (size + more > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + more));
        }
    }
}
