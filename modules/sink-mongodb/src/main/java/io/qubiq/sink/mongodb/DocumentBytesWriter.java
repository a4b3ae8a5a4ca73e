package io.qubiq.sink.mongodb;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Writes one {@link MongoDocument} in {@link MongoDocumentCodec}'s format into a growable array.
 * Unsynchronized and single-use: one instance per {@code encode} call.
 */
final class DocumentBytesWriter {

    private byte[] bytes;
    private int size;

    DocumentBytesWriter(int initialCapacity) {
        this.bytes = new byte[Math.max(16, initialCapacity)];
    }

    byte[] toByteArray() {
        return Arrays.copyOf(bytes, size);
    }

    void writeByte(int value) {
        ensure(1);
        bytes[size++] = (byte) value;
    }

    /** Unsigned LEB128: seven bits per byte, low bits first. */
    void writeVarLong(long value) {
        ensure(10);
        while ((value & ~0x7FL) != 0) {
            bytes[size++] = (byte) ((value & 0x7F) | 0x80);
            value >>>= 7;
        }
        bytes[size++] = (byte) value;
    }

    /** Zig-zag, so small negative numbers stay short. */
    void writeSignedVarLong(long value) {
        writeVarLong((value << 1) ^ (value >> 63));
    }

    void writeDouble(double value) {
        long bits = Double.doubleToRawLongBits(value);
        ensure(8);
        for (int shift = 56; shift >= 0; shift -= 8) {
            bytes[size++] = (byte) (bits >>> shift);
        }
    }

    /** Byte length, then UTF-8 (the JDK's encoder copies Latin-1 strings without decoding them). */
    void writeString(String value) {
        byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
        writeVarLong(utf8.length);
        ensure(utf8.length);
        System.arraycopy(utf8, 0, bytes, size, utf8.length);
        size += utf8.length;
    }

    void writeDocument(Map<String, Object> document) {
        writeVarLong(document.size());
        for (Map.Entry<String, Object> field : document.entrySet()) {
            writeString(field.getKey());
            writeValue(field.getValue());
        }
    }

    @SuppressWarnings("unchecked")
    void writeValue(Object value) {
        if (value == null) {
            writeByte(ValueTag.NULL);
        } else if (value instanceof String s) {
            writeByte(ValueTag.STRING);
            writeString(s);
        } else if (value instanceof Double d) {
            writeByte(ValueTag.DOUBLE);
            writeDouble(d);
        } else if (value instanceof Long l) {
            writeByte(ValueTag.INT64);
            writeSignedVarLong(l);
        } else if (value instanceof Integer i) {
            writeByte(ValueTag.INT32);
            writeSignedVarLong(i);
        } else if (value instanceof Boolean b) {
            writeByte(b ? ValueTag.TRUE : ValueTag.FALSE);
        } else if (value instanceof Instant t) {
            writeByte(ValueTag.INSTANT);
            writeSignedVarLong(t.getEpochSecond());
            writeVarLong(t.getNano());
        } else if (value instanceof BigDecimal d) {
            writeByte(ValueTag.DECIMAL);
            writeSignedVarLong(d.scale());
            byte[] unscaled = d.unscaledValue().toByteArray();
            writeVarLong(unscaled.length);
            ensure(unscaled.length);
            System.arraycopy(unscaled, 0, bytes, size, unscaled.length);
            size += unscaled.length;
        } else if (value instanceof Map<?, ?> map) {
            writeByte(ValueTag.DOCUMENT);
            writeDocument((Map<String, Object>) map);
        } else if (value instanceof List<?> list) {
            writeByte(ValueTag.ARRAY);
            writeVarLong(list.size());
            for (Object element : list) {
                writeValue(element);
            }
        } else {
            // MongoDocument's constructor admits no other type
            throw new IllegalStateException("unsupported value type " + value.getClass().getName());
        }
    }

    private void ensure(int more) {
        if (size + more > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + more));
        }
    }
}
