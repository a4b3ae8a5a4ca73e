package io.qubiq.sink.questdb;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/** Appends the primitives of {@link QuestDbRowCodec}'s layout. Not thread-safe; one per encode. */
final class RowBytesWriter {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream(64);

    void writeByte(byte b) {
        out.write(b);
    }

    /** Unsigned LEB128: seven bits a byte, low bits first, high bit set on all but the last. */
    void writeVarLong(long value) {
        while ((value & ~0x7FL) != 0) {
            out.write((int) ((value & 0x7F) | 0x80));
            value >>>= 7;
        }
        out.write((int) value);
    }

    void writeZigZag(long value) {
        writeVarLong((value << 1) ^ (value >> 63));
    }

    void writeLong(long value) {
        for (int shift = 56; shift >= 0; shift -= 8) {
            out.write((int) (value >>> shift));
        }
    }

    void writeString(String value) {
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        writeVarLong(bytes.length);
        out.write(bytes, 0, bytes.length);
    }

    byte[] toByteArray() {
        return out.toByteArray();
    }
}
