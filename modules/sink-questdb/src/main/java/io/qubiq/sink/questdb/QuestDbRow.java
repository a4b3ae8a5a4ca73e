package io.qubiq.sink.questdb;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One row for a QuestDB table: the table, the designated timestamp, symbol columns (indexed
 * strings, written first) and other columns, both in insertion order. Column values are
 * {@code Boolean}, {@code Long} ({@code Integer}, {@code Short} and {@code Byte} are widened),
 * {@code Double} ({@code Float} is widened), {@code String}, or {@code Instant} (a timestamp
 * column). Names follow QuestDB's rules; a column name appears at most once across both maps.
 * The designated timestamp must lie between 1970-01-01 and 2262-04-11 (nanoseconds in a long).
 *
 * <p>Immutable; the maps are unmodifiable copies.
 */
public record QuestDbRow(String table, Instant timestamp, Map<String, String> symbols, Map<String, Object> columns) {

    static final Instant LATEST = Instant.ofEpochSecond(0, Long.MAX_VALUE);

    public QuestDbRow {
        QuestDbNames.requireTable(table);
        Objects.requireNonNull(timestamp, "timestamp");
        if (timestamp.isBefore(Instant.EPOCH) || timestamp.isAfter(LATEST)) {
            throw new IllegalArgumentException("designated timestamp out of QuestDB's range: " + timestamp);
        }
        Map<String, String> symbolCopy = new LinkedHashMap<>();
        for (Map.Entry<String, String> symbol : symbols.entrySet()) {
            QuestDbNames.requireColumn(symbol.getKey());
            symbolCopy.put(symbol.getKey(), Objects.requireNonNull(symbol.getValue(), "symbol " + symbol.getKey()));
        }
        Map<String, Object> columnCopy = new LinkedHashMap<>();
        for (Map.Entry<String, Object> column : columns.entrySet()) {
            QuestDbNames.requireColumn(column.getKey());
            if (symbolCopy.containsKey(column.getKey())) {
                throw new IllegalArgumentException("column " + column.getKey() + " is also a symbol");
            }
            columnCopy.put(column.getKey(), normalized(column.getKey(), column.getValue()));
        }
        if (symbolCopy.isEmpty() && columnCopy.isEmpty()) {
            throw new IllegalArgumentException("a row of " + table + " needs at least one symbol or column");
        }
        symbols = Collections.unmodifiableMap(symbolCopy);
        columns = Collections.unmodifiableMap(columnCopy);
    }

    /** Starts a row of {@code table} at {@code timestamp}. */
    public static Builder builder(String table, Instant timestamp) {
        return new Builder(table, timestamp);
    }

    private static Object normalized(String name, Object value) {
        if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return ((Number) value).longValue();
        }
        if (value instanceof Float f) {
            return f.doubleValue();
        }
        if (value instanceof Boolean || value instanceof Long || value instanceof Double || value instanceof String
                || value instanceof Instant) {
            return value;
        }
        throw new IllegalArgumentException("column " + name + ": unsupported value "
                + (value == null ? "null" : value.getClass().getSimpleName())
                + " (Boolean, Long, Integer, Double, Float, String or Instant)");
    }

    /** Collects symbols and columns in order; not thread-safe. */
    public static final class Builder {
        private final String table;
        private final Instant timestamp;
        private final Map<String, String> symbols = new LinkedHashMap<>();
        private final Map<String, Object> columns = new LinkedHashMap<>();

        private Builder(String table, Instant timestamp) {
            this.table = table;
            this.timestamp = timestamp;
        }

        public Builder symbol(String name, String value) {
            symbols.put(name, value);
            return this;
        }

        public Builder column(String name, Object value) {
            columns.put(name, value);
            return this;
        }

        public QuestDbRow build() {
            return new QuestDbRow(table, timestamp, symbols, columns);
        }
    }
}
