package io.qubiq.sink.questdb;

import io.qubiq.core.error.PermanentException;
import io.qubiq.core.sink.ItemCodec;
import java.time.Instant;
import java.util.Map;

/**
 * The buffer bytes of a {@link QuestDbRow}. Layout, version 1 (varints are unsigned LEB128,
 * zigzag-encoded where a value may be negative; strings are a varint byte length and UTF-8):
 *
 * <pre>
 * 'Q' 0x01                       magic and format version
 * string table
 * varint seconds, varint nanos   designated timestamp (never before the epoch)
 * varint n, n × (string name, string value)                  symbols, in order
 * varint m, m × (string name, byte type, value)              columns, in order
 *   type 'B' one byte 0/1 | 'L' zigzag varint | 'D' 8-byte IEEE 754 big-endian
 *   type 'S' string       | 'T' zigzag varint seconds, varint nanos (timestamp column)
 * </pre>
 *
 * Bytes that are not exactly one such record (unknown magic or version, truncation, trailing
 * bytes, an invalid row) fail with {@link PermanentException}, so the channel quarantines them
 * with their raw bytes. A later format gets a new version byte; this decoder keeps reading 1.
 *
 * <p>Thread-safe. Its only state is a cache of strings it decoded before ({@link Utf8Interner}), so
 * that a drain does not allocate the same table, column and symbol names for every row.
 */
public final class QuestDbRowCodec implements ItemCodec<QuestDbRow> {

    static final byte MAGIC = 'Q';
    static final byte VERSION = 1;
    private static final int PREVIEW_CHARS = 300;

    private final Utf8Interner repeated = new Utf8Interner();

    @Override
    public byte[] encode(QuestDbRow row) {
        RowBytesWriter out = new RowBytesWriter();
        out.writeByte(MAGIC);
        out.writeByte(VERSION);
        out.writeString(row.table());
        out.writeVarLong(row.timestamp().getEpochSecond());
        out.writeVarLong(row.timestamp().getNano());
        int symbols = row.symbolCount();
        int fields = row.fieldCount();
        out.writeVarLong(symbols);
        for (int i = 0; i < symbols; i++) {
            out.writeString(row.fieldName(i));
            out.writeString((String) row.fieldValue(i));
        }
        out.writeVarLong(fields - symbols);
        for (int i = symbols; i < fields; i++) {
            out.writeString(row.fieldName(i));
            writeValue(out, row.fieldValue(i));
        }
        return out.toByteArray();
    }

    @Override
    public QuestDbRow decode(byte[] bytes) throws PermanentException {
        try {
            RowBytesReader in = new RowBytesReader(bytes, repeated);
            if (in.readByte() != MAGIC) {
                throw new IllegalArgumentException("not a QuestDB row (bad magic byte)");
            }
            int version = in.readByte();
            if (version != VERSION) {
                throw new IllegalArgumentException("unknown QuestDB row format version " + version);
            }
            String table = in.readRepeatedString();
            Instant timestamp = Instant.ofEpochSecond(in.readVarLong(), in.readVarLong());
            int symbolCount = in.readCount();
            String[] symbolNames = new String[symbolCount];
            String[] symbolValues = new String[symbolCount];
            for (int i = 0; i < symbolCount; i++) {
                symbolNames[i] = in.readRepeatedString();
                symbolValues[i] = in.readRepeatedString();
            }
            int columnCount = in.readCount();
            String[] names = new String[symbolCount + columnCount];
            Object[] values = new Object[symbolCount + columnCount];
            System.arraycopy(symbolNames, 0, names, 0, symbolCount);
            System.arraycopy(symbolValues, 0, values, 0, symbolCount);
            for (int i = symbolCount; i < names.length; i++) {
                names[i] = in.readRepeatedString();
                values[i] = readValue(in);
            }
            in.requireEnd();
            return QuestDbRow.of(table, timestamp, names, values, symbolCount);
        } catch (RuntimeException e) {
            throw new PermanentException("undecodable QuestDB row (" + bytes.length + " bytes): " + e.getMessage(), e);
        }
    }

    /** An ILP-like line: {@code table,sym=a col=1i,d=2.5,s="x",t=2026-01-01T00:00:00Z 2026-01-01T00:00:00Z}. */
    @Override
    public String preview(QuestDbRow row) {
        StringBuilder line = new StringBuilder(row.table());
        row.symbols().forEach((name, value) -> line.append(',').append(name).append('=').append(value));
        char separator = ' ';
        for (Map.Entry<String, Object> column : row.columns().entrySet()) {
            line.append(separator).append(column.getKey()).append('=');
            Object value = column.getValue();
            if (value instanceof String s) {
                line.append('"').append(s.replace("\"", "\\\"")).append('"');
            } else if (value instanceof Long l) {
                line.append(l).append('i');
            } else if (value instanceof Instant t) {
                line.append(t).append('t');
            } else {
                line.append(value);
            }
            separator = ',';
        }
        line.append(' ').append(row.timestamp());
        return line.length() <= PREVIEW_CHARS ? line.toString() : line.substring(0, PREVIEW_CHARS) + "…";
    }

    private static void writeValue(RowBytesWriter out, Object value) {
        if (value instanceof Boolean b) {
            out.writeByte((byte) 'B');
            out.writeByte((byte) (b ? 1 : 0));
        } else if (value instanceof Long l) {
            out.writeByte((byte) 'L');
            out.writeZigZag(l);
        } else if (value instanceof Double d) {
            out.writeByte((byte) 'D');
            out.writeLong(Double.doubleToRawLongBits(d));
        } else if (value instanceof String s) {
            out.writeByte((byte) 'S');
            out.writeString(s);
        } else if (value instanceof Instant t) {
            out.writeByte((byte) 'T');
            out.writeZigZag(t.getEpochSecond());
            out.writeVarLong(t.getNano());
        } else {
            throw new IllegalArgumentException("unsupported column value " + value);
        }
    }

    private static Object readValue(RowBytesReader in) {
        int type = in.readByte();
        return switch (type) {
            case 'B' -> switch (in.readByte()) {
                case 0 -> Boolean.FALSE;
                case 1 -> Boolean.TRUE;
                default -> throw new IllegalArgumentException("bad boolean byte");
            };
            case 'L' -> in.readZigZag();
            case 'D' -> Double.longBitsToDouble(in.readLong());
            case 'S' -> in.readString();
            case 'T' -> Instant.ofEpochSecond(in.readZigZag(), in.readVarLong());
            default -> throw new IllegalArgumentException("unknown column type byte " + type);
        };
    }
}
