package io.qubiq.sink.mongodb;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads what {@link DocumentBytesWriter} wrote. Every length is checked against the bytes that
 * remain, so damaged input fails with an {@link IllegalArgumentException} naming the offset rather
 * than allocating or recursing without bound. Single-use, unsynchronized.
 */
final class DocumentBytesReader {

    private final byte[] bytes;
    private int position;

    DocumentBytesReader(byte[] bytes, int offset) {
        this.bytes = bytes;
        this.position = offset;
    }

    int position() {
        return position;
    }

    boolean atEnd() {
        return position == bytes.length;
    }

    int readByte() {
        if (position >= bytes.length) {
            throw new IllegalArgumentException("unexpected end of data at offset " + position);
        }
        return bytes[position++] & 0xFF;
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
        throw new IllegalArgumentException("malformed varint ending at offset " + position);
    }

    long readSignedVarLong() {
        long raw = readVarLong();
        return (raw >>> 1) ^ -(raw & 1);
    }

    /** A count or length that must fit in what is left (each element takes at least one byte). */
    int readLength(String what) {
        int at = position;
        long length = readVarLong();
        if (length < 0 || length > bytes.length - position) {
            throw new IllegalArgumentException(what + " of " + length + " at offset " + at + " exceeds the "
                    + (bytes.length - position) + " bytes left");
        }
        return (int) length;
    }

    double readDouble() {
        long bits = 0;
        for (int i = 0; i < 8; i++) {
            bits = (bits << 8) | readByte();
        }
        return Double.longBitsToDouble(bits);
    }

    String readString() {
        int length = readLength("string length");
        String value = new String(bytes, position, length, StandardCharsets.UTF_8);
        position += length;
        return value;
    }

    Map<String, Object> readDocument(int depth) {
        checkDepth(depth);
        int count = readLength("field count");
        Map<String, Object> document = new LinkedHashMap<>(Math.max(4, (int) (count / 0.75f) + 1));
        for (int i = 0; i < count; i++) {
            int at = position;
            String name = readString();
            if (document.put(name, readValue(depth)) != null || document.size() != i + 1) {
                throw new IllegalArgumentException("field \"" + name + "\" repeated at offset " + at);
            }
        }
        return document;
    }

    Object readValue(int depth) {
        int at = position;
        int tag = readByte();
        return switch (tag) {
            case ValueTag.NULL -> null;
            case ValueTag.STRING -> readString();
            case ValueTag.INT32 -> {
                long value = readSignedVarLong();
                if (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE) {
                    throw new IllegalArgumentException("int32 out of range at offset " + at);
                }
                yield (int) value;
            }
            case ValueTag.INT64 -> readSignedVarLong();
            case ValueTag.DOUBLE -> readDouble();
            case ValueTag.TRUE -> Boolean.TRUE;
            case ValueTag.FALSE -> Boolean.FALSE;
            case ValueTag.DECIMAL -> {
                long scale = readSignedVarLong();
                int length = readLength("decimal length");
                if (length == 0 || scale < Integer.MIN_VALUE || scale > Integer.MAX_VALUE) {
                    throw new IllegalArgumentException("malformed decimal at offset " + at);
                }
                BigInteger unscaled = new BigInteger(bytes, position, length);
                position += length;
                yield new BigDecimal(unscaled, (int) scale);
            }
            case ValueTag.INSTANT -> {
                long seconds = readSignedVarLong();
                long nanos = readVarLong();
                if (nanos < 0 || nanos > 999_999_999) {
                    throw new IllegalArgumentException("instant nanoseconds out of range at offset " + at);
                }
                yield Instant.ofEpochSecond(seconds, nanos);
            }
            case ValueTag.DOCUMENT -> readDocument(depth + 1);
            case ValueTag.ARRAY -> {
                checkDepth(depth + 1);
                int count = readLength("array length");
                List<Object> list = new ArrayList<>(count);
                for (int i = 0; i < count; i++) {
                    list.add(readValue(depth + 1));
                }
                yield list;
            }
            default -> throw new IllegalArgumentException("unknown value tag " + tag + " at offset " + at);
        };
    }

    private void checkDepth(int depth) {
        if (depth > FieldValues.MAX_DEPTH) {
            throw new IllegalArgumentException("nested deeper than " + FieldValues.MAX_DEPTH + " levels at offset "
                    + position);
        }
    }
}
