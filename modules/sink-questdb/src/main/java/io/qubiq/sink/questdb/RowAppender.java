package io.qubiq.sink.questdb;

import io.qubiq.core.error.PermanentException;
import io.questdb.client.Sender;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;

/**
 * Appends one row to the client's request, from a {@link QuestDbRow} or from the bytes {@link
 * QuestDbRowCodec} made of it: the same client calls with the same values either way. Timestamps
 * go out as nanoseconds, or as microseconds for {@link TimestampPrecision#MICROS}.
 *
 * <p>Not thread-safe: the codec it reads bytes with keeps caches (shapes, repeated strings) of its
 * own, and one row's values are read into fields before they are appended; one appender per sink,
 * used by the sink's writing thread.
 */
final class RowAppender {

    private final boolean micros;
    /** Reads encoded rows; its caches serve {@link #appendEncoded} only. */
    private final QuestDbRowCodec codec = new QuestDbRowCodec();
    /** Reset for each encoded row: no reader allocated per row. */
    private final RowBytesReader reader = codec.reusableReader();
    /*
     * One encoded row as read() leaves it for appendEncoded, by field index: the type byte of each
     * column; a column's long, double bits, boolean (0/1) or timestamp seconds; a timestamp's nanos;
     * a symbol's or string column's value. Grown to the widest layout seen.
     */
    private byte[] types = new byte[16];
    private long[] longs = new long[16];
    private long[] nanos = new long[16];
    private String[] strings = new String[16];
    private long atSeconds;
    private long atNanos;

    RowAppender(TimestampPrecision precision) {
        this.micros = precision == TimestampPrecision.MICROS;
    }

    void append(Sender s, QuestDbRow row) {
        s.table(row.table());
        int symbols = row.symbolCount();
        int fields = row.fieldCount();
        for (int i = 0; i < symbols; i++) {
            s.symbol(row.fieldName(i), (String) row.fieldValue(i));
        }
        for (int i = symbols; i < fields; i++) {
            String name = row.fieldName(i);
            Object value = row.fieldValue(i);
            if (value instanceof Double d) {
                s.doubleColumn(name, d);
            } else if (value instanceof Long l) {
                s.longColumn(name, l);
            } else if (value instanceof Instant t) {
                if (micros) {
                    s.timestampColumn(name, TimestampPrecision.micros(t), ChronoUnit.MICROS);
                } else {
                    s.timestampColumn(name, t);
                }
            } else if (value instanceof String str) {
                s.stringColumn(name, str);
            } else if (value instanceof Boolean b) {
                s.boolColumn(name, b);
            } else {
                throw new IllegalArgumentException("unsupported value for column " + name + ": " + value);
            }
        }
        if (micros) {
            s.at(TimestampPrecision.micros(row.timestamp()), ChronoUnit.MICROS);
        } else {
            s.at(row.timestamp());
        }
    }

    /**
     * {@link #append} of the decoded row, read from its bytes: the same client calls with the same
     * values. The whole row is read and checked before the first call on the client, with every
     * check {@link QuestDbRowCodec#decode} makes, so bytes that do not decode leave the request as
     * it was. Version 1 bytes are decoded first.
     *
     * @param offset where the row's bytes start in {@code bytes}; they run to its end
     * @throws PermanentException when the bytes do not decode (the codec's message)
     */
    void appendEncoded(Sender s, byte[] bytes, int offset) throws PermanentException {
        if (!QuestDbRowCodec.isVersion2(bytes, offset)) {
            append(s, codec.decode(Arrays.copyOfRange(bytes, offset, bytes.length)));
            return;
        }
        QuestDbRow.Layout layout;
        try {
            layout = read(bytes, offset);
        } catch (RuntimeException e) {
            throw QuestDbRowCodec.undecodable(bytes.length - offset, e);
        }
        String[] names = layout.names();
        int symbols = layout.symbolCount();
        s.table(layout.table());
        for (int i = 0; i < symbols; i++) {
            s.symbol(names[i], strings[i]);
        }
        for (int i = symbols; i < names.length; i++) {
            String name = names[i];
            switch (types[i]) {
                case 'D' -> s.doubleColumn(name, Double.longBitsToDouble(longs[i]));
                case 'L' -> s.longColumn(name, longs[i]);
                case 'T' -> {
                    if (micros) {
                        s.timestampColumn(name, TimestampPrecision.micros(longs[i], nanos[i]), ChronoUnit.MICROS);
                    } else {
                        s.timestampColumn(name, Instant.ofEpochSecond(longs[i], nanos[i]));
                    }
                }
                case 'S' -> s.stringColumn(name, strings[i]);
                default -> s.boolColumn(name, longs[i] == 1); // 'B', the only other type read() lets through
            }
        }
        if (micros) {
            s.at(TimestampPrecision.micros(atSeconds, atNanos), ChronoUnit.MICROS);
        } else {
            s.at(Instant.ofEpochSecond(atSeconds, atNanos));
        }
    }

    /**
     * Reads version 2 bytes into the scratch fields, with the codec's checks (shape, designated
     * timestamp range, UTF-8, value types and ranges, nothing trailing); the row's layout.
     */
    private QuestDbRow.Layout read(byte[] bytes, int offset) {
        RowBytesReader in = reader.reset(bytes, offset, offset + 2);
        QuestDbRow.Layout layout = codec.readShape(in);
        atSeconds = in.readVarLong();
        atNanos = in.readVarLong();
        QuestDbRow.checkTimestamp(Instant.ofEpochSecond(atSeconds, atNanos));
        int size = layout.size();
        if (types.length < size) {
            types = new byte[size];
            longs = new long[size];
            nanos = new long[size];
            strings = new String[size];
        }
        int symbols = layout.symbolCount();
        for (int i = 0; i < symbols; i++) {
            strings[i] = in.readRepeatedString();
        }
        for (int i = symbols; i < size; i++) {
            int type = in.readByte();
            types[i] = (byte) type;
            switch (type) {
                case 'D' -> longs[i] = in.readLong();
                case 'L' -> longs[i] = in.readZigZag();
                case 'T' -> {
                    longs[i] = in.readZigZag();
                    nanos[i] = in.readVarLong();
                    Instant.ofEpochSecond(longs[i], nanos[i]); // in Instant's range, as decode requires
                }
                case 'S' -> strings[i] = in.readString();
                case 'B' -> {
                    int b = in.readByte();
                    if (b != 0 && b != 1) {
                        throw new IllegalArgumentException("bad boolean byte");
                    }
                    longs[i] = b;
                }
                default -> throw new IllegalArgumentException("unknown column type byte " + type);
            }
        }
        in.requireEnd();
        return layout;
    }
}
