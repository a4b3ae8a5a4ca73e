package io.qubiq.sink.sql;

import io.qubiq.core.error.PermanentException;
import io.qubiq.core.sink.ItemCodec;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The buffer bytes of a {@link SqlRow}. Layout, version 1 (varints are unsigned LEB128,
 * zigzag-encoded where a value may be negative; strings are a varint byte length and UTF-8):
 *
 * <pre>
 * 0x01                                  format version
 * string item id
 * string statement                      as written, with its named parameters
 * varint n, n × (string name, byte type, value)         parameters, in order
 *   type 'n' null            | 't' true | 'f' false
 *   type 'i' zigzag varint (Integer)    | 'l' zigzag varint (Long)
 *   type 'd' 8-byte IEEE 754 big-endian (Double)
 *   type 's' string
 *   type 'm' zigzag varint scale, varint length, two's-complement big-endian unscaled value (BigDecimal)
 *   type 'T' zigzag varint epoch seconds, varint nanoseconds (Instant)
 * </pre>
 *
 * Bytes that are not exactly one such record (unknown version, truncation, trailing bytes, an
 * unknown type, malformed UTF-8, an invalid row) fail with {@link PermanentException}, so the
 * channel quarantines them with their raw bytes. A later format gets a new version byte; this
 * decoder keeps reading 1.
 *
 * <p>Thread-safe. It remembers the last statement it encoded and decoded (an immutable pair in a
 * volatile field), so consecutive rows with the same statement cost one UTF-8 conversion and share
 * one decoded string.
 */
public final class SqlRowCodec implements ItemCodec<SqlRow> {

    static final byte VERSION = 1;
    static final int PREVIEW_CHARS = 500;

    /** A statement and its UTF-8: rows of one pipeline share their statement, so it is encoded once. */
    private record Utf8(String text, byte[] bytes) {
        static Utf8 of(String text) {
            return new Utf8(text, text.getBytes(StandardCharsets.UTF_8));
        }
    }

    private volatile Utf8 lastEncoded = Utf8.of(" ");
    private volatile Utf8 lastDecoded = Utf8.of(" ");

    @Override
    public byte[] encode(SqlRow row) {
        Utf8 statement = lastEncoded;
        if (statement.text() != row.statement()) {
            statement = Utf8.of(row.statement());
            lastEncoded = statement;
        }
        ParameterMap parameters = (ParameterMap) row.parameters();
        // room for every ASCII row without growing: varints reserve 10 bytes before they write, so each
        // parameter gets its name, a name length, a type byte and 20 bytes of value (an Instant needs 16)
        int size = 32 + row.itemId().length() + statement.bytes().length;
        for (int i = 0; i < parameters.size(); i++) {
            size += parameters.name(i).length() + 22 + (parameters.value(i) instanceof String s ? s.length() + 5 : 0);
        }
        RowBytesWriter out = new RowBytesWriter(size);
        out.writeByte(VERSION);
        out.writeString(row.itemId());
        out.writeBytes(statement.bytes());
        out.writeVarLong(parameters.size());
        for (int i = 0; i < parameters.size(); i++) {
            out.writeString(parameters.name(i));
            writeValue(out, parameters.value(i));
        }
        return out.toByteArray();
    }

    @Override
    public SqlRow decode(byte[] bytes) throws PermanentException {
        try {
            RowBytesReader in = new RowBytesReader(bytes);
            int version = in.readByte();
            if (version != VERSION) {
                throw new IllegalArgumentException("unknown SQL row format version " + version);
            }
            String itemId = in.readString();
            Utf8 known = lastDecoded;
            String statement = in.readString(known.text(), known.bytes());
            if (statement != known.text()) {
                lastDecoded = Utf8.of(statement);
            }
            int count = in.readCount();
            String[] names = new String[count];
            Object[] values = new Object[count];
            for (int i = 0; i < count; i++) {
                names[i] = in.readString();
                values[i] = readValue(in);
            }
            in.requireEnd();
            return new SqlRow(itemId, statement, checked(names, values));
        } catch (RuntimeException e) {
            throw new PermanentException("undecodable SQL row (" + bytes.length + " bytes): " + e.getMessage(), e);
        }
    }

    /** The decoded parameters, checked as {@link SqlRow} checks a map it is given. */
    private static Map<String, Object> checked(String[] names, Object[] values) {
        ParameterMap parameters = new ParameterMap(names, values);
        Set<String> seen = names.length > 16 ? new HashSet<>() : null;
        for (int i = 0; i < names.length; i++) {
            if (!SqlRow.isName(names[i]) || SqlRow.ITEM_ID.equals(names[i])) {
                throw new IllegalArgumentException("invalid parameter name \"" + names[i] + "\"");
            }
            if (seen != null ? !seen.add(names[i]) : parameters.indexOf(names[i], -1) != i) {
                throw new IllegalArgumentException("parameter " + names[i] + " appears twice");
            }
        }
        return parameters;
    }

    /** The statement on one line, then the values: {@code INSERT ... VALUES (:a) with item_id='r1', a=1}. */
    @Override
    public String preview(SqlRow row) {
        StringBuilder text = new StringBuilder(row.statement().strip().replaceAll("\\s+", " "));
        text.append(" with ").append(SqlRow.ITEM_ID).append('=');
        quote(text, row.itemId());
        for (Map.Entry<String, Object> parameter : row.parameters().entrySet()) {
            text.append(", ").append(parameter.getKey()).append('=');
            Object value = parameter.getValue();
            if (value == null) {
                text.append("NULL");
            } else if (value instanceof String s) {
                quote(text, s);
            } else if (value instanceof Instant t) {
                text.append('\'').append(t).append('\'');
            } else if (value instanceof BigDecimal d) {
                text.append(d.toPlainString());
            } else {
                text.append(value);
            }
            if (text.length() > PREVIEW_CHARS) {
                break;
            }
        }
        return text.length() <= PREVIEW_CHARS ? text.toString() : text.substring(0, PREVIEW_CHARS) + "…";
    }

    private static void quote(StringBuilder text, String value) {
        text.append('\'').append(value.replace("'", "''")).append('\'');
    }

    private static void writeValue(RowBytesWriter out, Object value) {
        if (value == null) {
            out.writeByte('n');
        } else if (value instanceof String s) {
            out.writeByte('s');
            out.writeString(s);
        } else if (value instanceof Long l) {
            out.writeByte('l');
            out.writeZigZag(l);
        } else if (value instanceof Integer i) {
            out.writeByte('i');
            out.writeZigZag(i);
        } else if (value instanceof Double d) {
            out.writeByte('d');
            out.writeLong(Double.doubleToRawLongBits(d));
        } else if (value instanceof Boolean b) {
            out.writeByte(b ? 't' : 'f');
        } else if (value instanceof BigDecimal d) {
            out.writeByte('m');
            out.writeZigZag(d.scale());
            out.writeBytes(d.unscaledValue().toByteArray());
        } else if (value instanceof Instant t) {
            out.writeByte('T');
            out.writeZigZag(t.getEpochSecond());
            out.writeVarLong(t.getNano());
        } else {
            throw new IllegalArgumentException("unsupported parameter value " + value.getClass().getName());
        }
    }

    private static Object readValue(RowBytesReader in) {
        int type = in.readByte();
        return switch (type) {
            case 'n' -> null;
            case 's' -> in.readString();
            case 'l' -> in.readZigZag();
            case 'i' -> in.readZigZagInt();
            case 'd' -> Double.longBitsToDouble(in.readLong());
            case 't' -> Boolean.TRUE;
            case 'f' -> Boolean.FALSE;
            case 'm' -> {
                int scale = in.readZigZagInt();
                yield new BigDecimal(new BigInteger(in.readBytes()), scale);
            }
            case 'T' -> instant(in.readZigZag(), in.readVarLong());
            default -> throw new IllegalArgumentException("unknown parameter type byte " + type);
        };
    }

    private static Instant instant(long seconds, long nanos) {
        if (nanos < 0 || nanos > 999_999_999) {
            throw new IllegalArgumentException("nanoseconds out of range: " + nanos);
        }
        return Instant.ofEpochSecond(seconds, nanos);
    }
}
