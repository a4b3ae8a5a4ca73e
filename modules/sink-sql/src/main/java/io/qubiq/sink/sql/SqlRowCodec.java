package io.qubiq.sink.sql;

import io.qubiq.core.error.PermanentException;
import io.qubiq.core.sink.ItemCodec;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

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
 * <p>Stateless and thread-safe.
 */
public final class SqlRowCodec implements ItemCodec<SqlRow> {

    static final byte VERSION = 1;
    static final int PREVIEW_CHARS = 500;

    @Override
    public byte[] encode(SqlRow row) {
        RowBytesWriter out = new RowBytesWriter(row.itemId().length() + row.statement().length()
                + 16 * row.parameters().size() + 8);
        out.writeByte(VERSION);
        out.writeString(row.itemId());
        out.writeString(row.statement());
        out.writeVarLong(row.parameters().size());
        for (Map.Entry<String, Object> parameter : row.parameters().entrySet()) {
            out.writeString(parameter.getKey());
            writeValue(out, parameter.getValue());
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
            String statement = in.readString();
            int count = in.readCount();
            Map<String, Object> parameters = new LinkedHashMap<>(Math.max(4, count * 2));
            for (int i = 0; i < count; i++) {
                String name = in.readString();
                parameters.put(name, readValue(in));
                if (parameters.size() != i + 1) {
                    throw new IllegalArgumentException("parameter " + name + " appears twice");
                }
            }
            in.requireEnd();
            return new SqlRow(itemId, statement, parameters);
        } catch (RuntimeException e) {
            throw new PermanentException("undecodable SQL row (" + bytes.length + " bytes): " + e.getMessage(), e);
        }
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
