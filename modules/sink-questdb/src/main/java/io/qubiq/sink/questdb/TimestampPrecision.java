package io.qubiq.sink.questdb;

import java.time.Instant;

/**
 * The unit in which the sink sends {@link Instant}s (the designated timestamp and timestamp
 * columns). {@link #NANOS} loses nothing and makes QuestDB create a missing column as
 * {@code TIMESTAMP_NS}: the choice for tables the sink may create. {@link #MICROS} suits tables
 * whose columns already are {@code TIMESTAMP} (microseconds), such as the historian's, which it
 * creates itself: QuestDB stores the same value either way (it truncates nanoseconds to the
 * column's microseconds), but the shorter numbers cost less to format, send and parse.
 */
public enum TimestampPrecision {
    NANOS,
    MICROS;

    /**
     * Microseconds since the epoch, the sub-microsecond part truncated (as QuestDB stores it).
     *
     * @throws ArithmeticException beyond a long's microseconds (some 292,000 years from 1970)
     */
    static long micros(Instant t) {
        return micros(t.getEpochSecond(), t.getNano());
    }

    /** {@link #micros(Instant)} of {@code Instant.ofEpochSecond(seconds, nanos)}, without the Instant. */
    static long micros(long seconds, long nanos) {
        return Math.addExact(Math.multiplyExact(seconds, 1_000_000L), Math.floorDiv(nanos, 1_000L));
    }
}
