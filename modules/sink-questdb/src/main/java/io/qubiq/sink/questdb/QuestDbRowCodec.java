package io.qubiq.sink.questdb;

import io.qubiq.core.error.PermanentException;
import io.qubiq.core.sink.ItemCodec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The buffer bytes of a {@link QuestDbRow}. Varints are unsigned LEB128, zigzag-encoded where a
 * value may be negative; strings are a varint byte length and UTF-8. Version 2, written by
 * {@link #encode}, puts the row's shape (table and names) in one block ahead of its values:
 *
 * <pre>
 * 'Q' 0x02                       magic and format version
 * varint k, k bytes:             the shape block:
 *     string table, varint n, n × string symbol name, varint m, m × string column name
 * varint seconds, varint nanos   designated timestamp (never before the epoch)
 * n × string                     symbol values, in the order of the names
 * m × (byte type, value)         column values, in the order of the names
 *   type 'B' one byte 0/1 | 'L' zigzag varint | 'D' 8-byte IEEE 754 big-endian
 *   type 'S' string       | 'T' zigzag varint seconds, varint nanos (timestamp column)
 * </pre>
 *
 * Rows of one shape share identical shape blocks, so the decoder validates a block's names once and
 * keeps the result under the block's bytes ({@link BytesCache}); each further row of that shape only
 * costs a comparison of the block and the reading of its values. Version 1, which buffers written
 * before version 2 may hold, is still read: the same fields with the names between the values
 * ({@code 'Q' 0x01, string table, varint seconds, varint nanos, varint n, n × (string name, string
 * value), varint m, m × (string name, byte type, value)}).
 *
 * <p>Bytes that are not exactly one such record (unknown magic or version, truncation, trailing
 * bytes, an invalid row) fail with {@link PermanentException}, so the channel quarantines them
 * with their raw bytes. A later format gets a new version byte; this decoder keeps reading 1 and 2.
 *
 * <p>{@link QuestDbSink#writeEncoded} writes rows from their bytes without making them; its reading
 * ({@code RowAppender}) makes the same checks as {@link #decode}.
 *
 * <p>Thread-safe. Its state is caches only: the shapes and repeated strings it decoded before (so a
 * drain does not allocate and check the same table, names and symbol values for every row) and the
 * shape blocks it encoded for rows of a {@link QuestDbRow.Layout}; all are lock-free and racy by
 * design, each entry immutable.
 */
public final class QuestDbRowCodec implements ItemCodec<QuestDbRow> {

    static final byte MAGIC = 'Q';
    static final byte VERSION_1 = 1;
    static final byte VERSION = 2;
    private static final int PREVIEW_CHARS = 300;
    private static final int ENCODED_SHAPE_SLOTS = 16;

    /** A shape block encoded for the (shared, never changed) names array of a layout's rows. */
    private record EncodedShape(String table, String[] names, int symbolCount, byte[] bytes) {
    }

    /**
     * Names and symbol values (tag paths) up to 64 bytes. 16,384 direct-mapped slots: at 2,048 the
     * 300 tags of the historian benchmark already collided often enough (each miss a new string and a
     * new entry) to show in the drain's cost; a plant with thousands of tags would miss on most rows.
     * About 128 KiB of slots per codec.
     */
    private final BytesCache<String> repeatedStrings = new BytesCache<>(16384, 64);
    private final BytesCache<QuestDbRow.Layout> shapes = new BytesCache<>(64, 4096);
    private final EncodedShape[] encodedShapes = new EncodedShape[ENCODED_SHAPE_SLOTS];
    /** The shape block decoded last and its layout, compared before hashing a block (racy, immutable). */
    private LastShape lastShape;

    private record LastShape(byte[] block, QuestDbRow.Layout layout) {
    }

    @Override
    public byte[] encode(QuestDbRow row) {
        byte[] shape = shapeBlock(row);
        RowBytesWriter out = new RowBytesWriter(shape.length + 64);
        out.writeByte(MAGIC);
        out.writeByte(VERSION);
        out.writeVarLong(shape.length);
        out.writeBytes(shape);
        out.writeVarLong(row.timestamp().getEpochSecond());
        out.writeVarLong(row.timestamp().getNano());
        int symbols = row.symbolCount();
        int fields = row.fieldCount();
        for (int i = 0; i < symbols; i++) {
            out.writeString((String) row.fieldValue(i));
        }
        for (int i = symbols; i < fields; i++) {
            writeValue(out, row.fieldValue(i));
        }
        return out.toByteArray();
    }

    private byte[] shapeBlock(QuestDbRow row) {
        String[] names = row.fieldNames();
        int symbols = row.symbolCount();
        int slot = System.identityHashCode(names) & (ENCODED_SHAPE_SLOTS - 1);
        EncodedShape known = encodedShapes[slot];
        if (known != null && known.names == names && known.table == row.table() && known.symbolCount == symbols) {
            return known.bytes;
        }
        RowBytesWriter out = new RowBytesWriter();
        out.writeString(row.table());
        out.writeVarLong(symbols);
        for (int i = 0; i < symbols; i++) {
            out.writeString(names[i]);
        }
        out.writeVarLong(names.length - symbols);
        for (int i = symbols; i < names.length; i++) {
            out.writeString(names[i]);
        }
        byte[] bytes = out.toByteArray();
        encodedShapes[slot] = new EncodedShape(row.table(), names, symbols, bytes);
        return bytes;
    }

    @Override
    public QuestDbRow decode(byte[] bytes) throws PermanentException {
        try {
            RowBytesReader in = new RowBytesReader(bytes, repeatedStrings);
            if (in.readByte() != MAGIC) {
                throw new IllegalArgumentException("not a QuestDB row (bad magic byte)");
            }
            int version = in.readByte();
            return switch (version) {
                case VERSION -> decodeVersion2(in);
                case VERSION_1 -> decodeVersion1(in);
                default -> throw new IllegalArgumentException("unknown QuestDB row format version " + version);
            };
        } catch (RuntimeException e) {
            throw undecodable(bytes.length, e);
        }
    }

    private QuestDbRow decodeVersion2(RowBytesReader in) {
        QuestDbRow.Layout layout = readShape(in);
        Instant timestamp = Instant.ofEpochSecond(in.readVarLong(), in.readVarLong());
        Object[] values = new Object[layout.size()];
        int symbols = layout.symbolCount();
        for (int i = 0; i < symbols; i++) {
            values[i] = in.readRepeatedString();
        }
        for (int i = symbols; i < values.length; i++) {
            values[i] = readValue(in);
        }
        in.requireEnd();
        return layout.adopt(timestamp, values);
    }

    /** The failure of bytes that do not decode, with the reader's reason. */
    static PermanentException undecodable(int length, RuntimeException e) {
        return new PermanentException("undecodable QuestDB row (" + length + " bytes): " + e.getMessage(), e);
    }

    static boolean isVersion2(byte[] bytes, int offset) {
        return bytes.length - offset >= 2 && bytes[offset] == MAGIC && bytes[offset + 1] == VERSION;
    }

    /**
     * A reader sharing this codec's string cache, for a single thread to {@link RowBytesReader#reset}
     * at position 2 for each row of {@link #isVersion2 version 2}: no reader allocated per row.
     */
    RowBytesReader reusableReader() {
        return new RowBytesReader(new byte[0], repeatedStrings);
    }

    /** Reads a version 2 shape block; its validated layout, found again by the block's bytes. */
    QuestDbRow.Layout readShape(RowBytesReader in) {
        int length = in.readCount();
        int start = in.position();
        in.skip(length);
        byte[] bytes = in.bytes();
        LastShape last = lastShape;
        if (last != null && Arrays.equals(last.block, 0, last.block.length, bytes, start, start + length)) {
            return last.layout; // the common case: the same shape as the row before
        }
        int hash = BytesCache.hash(bytes, start, length);
        QuestDbRow.Layout layout = shapes.find(bytes, start, length, hash);
        if (layout == null) {
            layout = shape(Arrays.copyOfRange(bytes, start, start + length));
            shapes.keep(bytes, start, length, hash, layout);
        }
        lastShape = new LastShape(Arrays.copyOfRange(bytes, start, start + length), layout);
        return layout;
    }

    /** The validated layout a shape block describes. */
    private QuestDbRow.Layout shape(byte[] block) {
        RowBytesReader in = new RowBytesReader(block, repeatedStrings);
        String table = in.readRepeatedString();
        List<String> symbols = readNames(in);
        List<String> columns = readNames(in);
        in.requireEnd();
        return QuestDbRow.Layout.of(table, symbols, columns);
    }

    private static List<String> readNames(RowBytesReader in) {
        int count = in.readCount();
        List<String> names = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            names.add(in.readRepeatedString());
        }
        return names;
    }

    private static QuestDbRow decodeVersion1(RowBytesReader in) {
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
        String[] names = Arrays.copyOf(symbolNames, symbolCount + columnCount);
        Object[] values = Arrays.copyOf(symbolValues, symbolCount + columnCount, Object[].class);
        for (int i = symbolCount; i < names.length; i++) {
            names[i] = in.readRepeatedString();
            values[i] = readValue(in);
        }
        in.requireEnd();
        return QuestDbRow.of(table, timestamp, names, values, symbolCount);
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
