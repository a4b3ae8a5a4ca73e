package io.qubiq.sink.questdb;

import java.time.Instant;
import java.util.ConcurrentModificationException;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * One row for a QuestDB table: the table, the designated timestamp, symbol columns (indexed
 * strings, written first) and other columns, both in insertion order. Column values are
 * {@code Boolean}, {@code Long} ({@code Integer}, {@code Short} and {@code Byte} are widened),
 * {@code Double} ({@code Float} is widened), {@code String}, or {@code Instant} (a timestamp
 * column). Names follow QuestDB's rules; a column name appears at most once across both maps.
 * The designated timestamp must lie between 1970-01-01 and 2262-04-11 (nanoseconds in a long).
 *
 * <p>Three ways to make one, all checked: the constructor and the {@link #builder} validate every
 * name (each distinct name is checked once and remembered, see {@link QuestDbNames}) and copy the
 * maps; a {@link Layout} validates its table and names once, when it is made, so that each of its
 * rows only checks its values: the way for a producer that writes many rows of one shape.
 *
 * <p>A row holds its names (shared by every row of a layout) and its values in two parallel arrays,
 * symbols first; {@link #symbols()} and {@link #columns()} are views over them. It is a class
 * rather than a record for that: one object and one array per row, which matters to a producer of
 * hundreds of thousands of rows a second. Equality is a record's: table, timestamp, symbols and
 * columns.
 *
 * <p>Immutable; the maps are unmodifiable and independent of the caller's.
 */
public final class QuestDbRow {

    static final Instant LATEST = Instant.ofEpochSecond(0, Long.MAX_VALUE);
    /** Up to this many names, duplicates are looked for pairwise; beyond it with a set. */
    private static final int PAIRWISE_LIMIT = 16;

    private final String table;
    private final Instant timestamp;
    /** Symbols then columns; shared with other rows of the same layout, never written. */
    private final String[] names;
    /** The row's own values, in {@link #names}' order; never written after construction. */
    private final Object[] values;
    private final int symbolCount;

    /**
     * A row with the given symbols and columns, both copied in their iteration order.
     *
     * @throws IllegalArgumentException a name QuestDB would reject, a name given twice, no name at
     *     all, a value of an unsupported type, or a timestamp out of range
     * @throws NullPointerException     a null table, timestamp, map, symbol value or column value
     */
    public QuestDbRow(String table, Instant timestamp, Map<String, String> symbols, Map<String, Object> columns) {
        QuestDbNames.requireTable(table);
        checkTimestamp(timestamp);
        int count = symbols.size() + columns.size();
        String[] names = new String[count];
        Object[] values = new Object[count];
        int i = 0;
        for (Map.Entry<String, String> symbol : symbols.entrySet()) {
            requireRoom(i, count);
            names[i] = symbol.getKey();
            values[i++] = symbol.getValue();
        }
        int symbolCount = i;
        for (Map.Entry<String, Object> column : columns.entrySet()) {
            requireRoom(i, count);
            names[i] = column.getKey();
            values[i++] = column.getValue();
        }
        if (i != count) {
            throw new ConcurrentModificationException("the maps changed while the row was made");
        }
        checkFields(table, names, values, symbolCount);
        this.table = table;
        this.timestamp = timestamp;
        this.names = names;
        this.values = values;
        this.symbolCount = symbolCount;
    }

    /** A row of arrays already checked (names validated and distinct, values normalized). */
    private QuestDbRow(String table, Instant timestamp, String[] names, Object[] values, int symbolCount) {
        checkTimestamp(timestamp);
        this.table = table;
        this.timestamp = timestamp;
        this.names = names;
        this.values = values;
        this.symbolCount = symbolCount;
    }

    /** Starts a row of {@code table} at {@code timestamp}. */
    public static Builder builder(String table, Instant timestamp) {
        return new Builder(table, timestamp);
    }

    /**
     * A row decoded from buffer bytes: {@code names} and {@code values} (symbols first, then
     * columns) become the row's own arrays and are checked like any other input.
     */
    static QuestDbRow of(String table, Instant timestamp, String[] names, Object[] values, int symbolCount) {
        QuestDbNames.requireTable(table);
        checkFields(table, names, values, symbolCount);
        return new QuestDbRow(table, timestamp, names, values, symbolCount);
    }

    public String table() {
        return table;
    }

    public Instant timestamp() {
        return timestamp;
    }

    /** The symbol columns in order: an unmodifiable view. */
    public Map<String, String> symbols() {
        return new RowFields<>(names, values, 0, symbolCount);
    }

    /** The other columns in order: an unmodifiable view. */
    public Map<String, Object> columns() {
        return new RowFields<>(names, values, symbolCount, names.length);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof QuestDbRow row && table.equals(row.table) && timestamp.equals(row.timestamp)
                && symbols().equals(row.symbols()) && columns().equals(row.columns());
    }

    @Override
    public int hashCode() {
        return Objects.hash(table, timestamp, symbols(), columns());
    }

    @Override
    public String toString() {
        return "QuestDbRow[table=" + table + ", timestamp=" + timestamp + ", symbols=" + symbols() + ", columns="
                + columns() + "]";
    }

    // ------------------------------------------------------------------ positional access for this package

    /** Symbols and columns together; symbols come first. */
    int fieldCount() {
        return names.length;
    }

    int symbolCount() {
        return symbolCount;
    }

    /** The names, symbols first: an array shared by every row of a layout, never changed. */
    String[] fieldNames() {
        return names;
    }

    String fieldName(int index) {
        return names[index];
    }

    Object fieldValue(int index) {
        return values[index];
    }

    // ------------------------------------------------------------------ checks

    /** A designated timestamp QuestDB can store: from 1970-01-01 to 2262-04-11, nanoseconds in a long. */
    static void checkTimestamp(Instant timestamp) {
        Objects.requireNonNull(timestamp, "timestamp");
        if (timestamp.isBefore(Instant.EPOCH) || timestamp.isAfter(LATEST)) {
            throw new IllegalArgumentException("designated timestamp out of QuestDB's range: " + timestamp);
        }
    }

    /**
     * Validates names (QuestDB's rules, no duplicates, at least one) and values (symbols non-null
     * strings, columns of a supported type, normalized in place).
     */
    private static void checkFields(String table, String[] names, Object[] values, int symbolCount) {
        if (names.length == 0) {
            throw new IllegalArgumentException("a row of " + table + " needs at least one symbol or column");
        }
        for (int i = 0; i < names.length; i++) {
            QuestDbNames.requireColumn(names[i]);
        }
        requireDistinct(names, symbolCount);
        for (int i = 0; i < symbolCount; i++) {
            values[i] = symbolValue(names[i], values[i]);
        }
        for (int i = symbolCount; i < names.length; i++) {
            values[i] = normalized(names[i], values[i]);
        }
    }

    private static void requireDistinct(String[] names, int symbolCount) {
        if (names.length <= PAIRWISE_LIMIT) {
            for (int i = 1; i < names.length; i++) {
                for (int j = 0; j < i; j++) {
                    if (names[j].equals(names[i])) {
                        throw duplicate(names[i], j < symbolCount && i >= symbolCount);
                    }
                }
            }
            return;
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < names.length; i++) {
            if (!seen.add(names[i])) {
                boolean symbol = false;
                for (int j = 0; j < symbolCount; j++) {
                    symbol |= names[j].equals(names[i]);
                }
                throw duplicate(names[i], symbol && i >= symbolCount);
            }
        }
    }

    private static IllegalArgumentException duplicate(String name, boolean columnAlsoSymbol) {
        return new IllegalArgumentException(columnAlsoSymbol ? "column " + name + " is also a symbol"
                : "name " + name + " appears twice in the row");
    }

    private static void requireRoom(int index, int count) {
        if (index >= count) {
            throw new ConcurrentModificationException("the maps changed while the row was made");
        }
    }

    private static String symbolValue(String name, Object value) {
        if (value instanceof String s) {
            return s;
        }
        Objects.requireNonNull(value, "symbol " + name);
        throw new IllegalArgumentException("symbol " + name + ": a String is needed, not "
                + value.getClass().getSimpleName());
    }

    private static Object normalized(String name, Object value) {
        if (value instanceof Double || value instanceof Long || value instanceof Instant || value instanceof String
                || value instanceof Boolean) {
            return value;
        }
        if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return ((Number) value).longValue();
        }
        if (value instanceof Float f) {
            return f.doubleValue();
        }
        throw new IllegalArgumentException("column " + name + ": unsupported value "
                + (value == null ? "null" : value.getClass().getSimpleName())
                + " (Boolean, Long, Integer, Double, Float, String or Instant)");
    }

    // ------------------------------------------------------------------ makers

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

    /**
     * The shape of many rows: a table and its symbol and column names, validated once when the
     * layout is made. Its {@link #row} checks only the timestamp and the values, so a producer that
     * writes the same shape again and again (the historian) pays for the names once.
     *
     * <p>Immutable and thread-safe.
     */
    public static final class Layout {
        private final String table;
        private final String[] names;
        private final int symbolCount;

        private Layout(String table, String[] names, int symbolCount) {
            this.table = table;
            this.names = names;
            this.symbolCount = symbolCount;
        }

        /**
         * @throws IllegalArgumentException a name QuestDB would reject, a name given twice, or no
         *     name at all
         */
        public static Layout of(String table, List<String> symbols, List<String> columns) {
            QuestDbNames.requireTable(table);
            String[] names = new String[symbols.size() + columns.size()];
            int i = 0;
            for (String symbol : symbols) {
                names[i++] = symbol;
            }
            for (String column : columns) {
                names[i++] = column;
            }
            if (names.length == 0) {
                throw new IllegalArgumentException("a row of " + table + " needs at least one symbol or column");
            }
            for (String name : names) {
                QuestDbNames.requireColumn(name);
            }
            requireDistinct(names, symbols.size());
            return new Layout(table, names, symbols.size());
        }

        public String table() {
            return table;
        }

        /** Symbols and columns together. */
        int size() {
            return names.length;
        }

        int symbolCount() {
            return symbolCount;
        }

        /** The names, symbols first; shared, never to be changed. */
        String[] names() {
            return names;
        }

        /**
         * A row of this layout: {@code values} are the symbol values (strings), then the column
         * values, in the order the layout names them. The array is copied.
         *
         * @throws IllegalArgumentException a wrong number of values, a value of an unsupported
         *     type, or a timestamp out of range
         * @throws NullPointerException     a null value
         */
        public QuestDbRow row(Instant timestamp, Object... values) {
            requireSize(values);
            return adopt(timestamp, values.clone());
        }

        /**
         * As {@link #row}, but {@code values} becomes the row's own array instead of being copied:
         * for a producer that fills a fresh array for each row (the historian makes hundreds of
         * thousands a second) and hands it over. The caller must not keep or change the array
         * afterwards; the values it holds are checked and normalized in place.
         *
         * @throws IllegalArgumentException as {@link #row}
         * @throws NullPointerException     as {@link #row}
         */
        public QuestDbRow rowOwning(Instant timestamp, Object[] values) {
            requireSize(values);
            return adopt(timestamp, values);
        }

        private void requireSize(Object[] values) {
            if (values.length != names.length) {
                throw new IllegalArgumentException("a row of " + table + " takes " + names.length + " values "
                        + List.of(names) + ", not " + values.length);
            }
        }

        /** {@link #row} without the copy: {@code values} (fresh, of this layout's size) become the row's own. */
        QuestDbRow adopt(Instant timestamp, Object[] values) {
            for (int i = 0; i < symbolCount; i++) {
                values[i] = symbolValue(names[i], values[i]);
            }
            for (int i = symbolCount; i < values.length; i++) {
                values[i] = normalized(names[i], values[i]);
            }
            return new QuestDbRow(table, timestamp, names, values, symbolCount);
        }
    }
}
