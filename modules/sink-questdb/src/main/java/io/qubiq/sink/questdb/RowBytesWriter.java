package io.qubiq.sink.questdb;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Appends the primitives of {@link QuestDbRowCodec}'s layout to a growable byte array (no stream,
 * no locks: one encode is one thread's business). Not thread-safe; one per encode.
 */
final class RowBytesWriter {

    private byte[] bytes;
    private int size;

    RowBytesWriter() {
        this(96);
    }

    RowBytesWriter(int initialCapacity) {
        this.bytes = new byte[Math.max(16, initialCapacity)];
    }

    void writeByte(byte b) {
        room(1);
        bytes[size++] = b;
    }

    /** Unsigned LEB128: seven bits a byte, low bits first, high bit set on all but the last. */
    void writeVarLong(long value) {
        room(10);
        byte[] b = bytes;
        int at = size;
        while ((value & ~0x7FL) != 0) {
            b[at++] = (byte) ((value & 0x7F) | 0x80);
            value >>>= 7;
        }
        b[at++] = (byte) value;
        size = at;
    }

    void writeZigZag(long value) {
        writeVarLong((value << 1) ^ (value >> 63));
    }

    /** Eight bytes, big-endian. */
    void writeLong(long value) {
        room(8);
        byte[] b = bytes;
        int at = size;
        for (int shift = 56; shift >= 0; shift -= 8) {
            b[at++] = (byte) (value >>> shift);
        }
        size = at;
    }

    /** A varint byte length and the UTF-8 bytes; ASCII (every name, most values) is copied char by char. */
    void writeString(String value) {
        int length = value.length();
        if (length < 0x80 && isAscii(value, length)) {
            room(1 + length);
            byte[] b = bytes;
            int at = size;
            b[at++] = (byte) length;
            for (int i = 0; i < length; i++) {
                b[at++] = (byte) value.charAt(i);
            }
            size = at;
            return;
        }
        byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
        writeVarLong(utf8.length);
        room(utf8.length);
        System.arraycopy(utf8, 0, bytes, size, utf8.length);
        size += utf8.length;
    }

    void writeBytes(byte[] source) {
        room(source.length);
        System.arraycopy(source, 0, bytes, size, source.length);
        size += source.length;
    }

    byte[] toByteArray() {
        return Arrays.copyOf(bytes, size);
    }

    private static boolean isAscii(String value, int length) {
        for (int i = 0; i < length; i++) {
            if (value.charAt(i) >= 0x80) {
                return false;
            }
        }
        return true;
    }

    private void room(int count) {
        if (count > bytes.length - size) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + count));
        }
    }
}
