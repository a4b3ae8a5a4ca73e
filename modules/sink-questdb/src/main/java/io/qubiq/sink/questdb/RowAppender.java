package io.qubiq.sink.questdb;

import io.qubiq.core.error.PermanentException;
import io.questdb.client.Sender;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * Appends one row to the client's request, from a {@link QuestDbRow} or from the bytes {@link
 * QuestDbRowCodec} made of it: the same client calls with the same values either way. Timestamps
 * go out as nanoseconds, or as microseconds for {@link TimestampPrecision#MICROS}.
 *
 * <p>Not thread-safe: the codec it reads bytes with keeps caches (shapes, repeated strings) of its
 * own; one appender per sink, used by the sink's writing thread.
 */
final class RowAppender {

    private final boolean micros;
    /** Reads encoded rows; its caches serve {@link #appendEncoded} only. */
    private final QuestDbRowCodec codec = new QuestDbRowCodec();
    /** Reset for each encoded row: no reader allocated per row. */
    private final RowBytesReader reader = codec.reusableReader();

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
     * values. Version 1 bytes are decoded first.
     */
    void appendEncoded(Sender s, byte[] bytes) {
        if (!QuestDbRowCodec.isVersion2(bytes)) {
            try {
                append(s, codec.decode(bytes));
                return;
            } catch (PermanentException e) {
                throw new IllegalArgumentException(e.getMessage(), e); // not validated: a caller's bug
            }
        }
        RowBytesReader in = reader.reset(bytes, 2);
        QuestDbRow.Layout layout = codec.readShape(in);
        long seconds = in.readVarLong();
        long nanos = in.readVarLong();
        String[] names = layout.names();
        int symbols = layout.symbolCount();
        s.table(layout.table());
        for (int i = 0; i < symbols; i++) {
            s.symbol(names[i], in.readRepeatedString());
        }
        for (int i = symbols; i < names.length; i++) {
            String name = names[i];
            int type = in.readByte();
            switch (type) {
                case 'D' -> s.doubleColumn(name, Double.longBitsToDouble(in.readLong()));
                case 'L' -> s.longColumn(name, in.readZigZag());
                case 'T' -> {
                    long columnSeconds = in.readZigZag();
                    long columnNanos = in.readVarLong();
                    if (micros) {
                        s.timestampColumn(name, TimestampPrecision.micros(columnSeconds, columnNanos),
                                ChronoUnit.MICROS);
                    } else {
                        s.timestampColumn(name, Instant.ofEpochSecond(columnSeconds, columnNanos));
                    }
                }
                case 'S' -> s.stringColumn(name, in.readString());
                case 'B' -> s.boolColumn(name, in.readByte() == 1);
                default -> throw new IllegalArgumentException("unknown column type byte " + type);
            }
        }
        if (micros) {
            s.at(TimestampPrecision.micros(seconds, nanos), ChronoUnit.MICROS);
        } else {
            s.at(Instant.ofEpochSecond(seconds, nanos));
        }
    }
}
