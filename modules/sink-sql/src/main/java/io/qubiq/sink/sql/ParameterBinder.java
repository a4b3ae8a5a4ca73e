package io.qubiq.sink.sql;

import java.math.BigDecimal;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.util.Calendar;
import java.util.List;
import java.util.TimeZone;

/**
 * Binds a {@link SqlRow}'s values to the placeholders of its {@link NamedStatement}, with the
 * standard JDBC setters: {@code setString}, {@code setInt}, {@code setLong}, {@code setDouble},
 * {@code setBoolean}, {@code setBigDecimal}, {@code setNull(Types.NULL)}, and for an
 * {@link Instant} {@code setTimestamp} with a UTC calendar, so the value is the same whatever the
 * gateway's time zone: exact for a {@code timestamptz} column, the UTC wall-clock time for a
 * {@code timestamp} one. {@code :item_id} gets the row's item id.
 *
 * <p>Not thread-safe (the calendar): one per sink, used by its writing thread.
 */
final class ParameterBinder {

    private final Calendar utc = Calendar.getInstance(TimeZone.getTimeZone("UTC"));

    /** Whether every placeholder of {@code statement} has a value in {@code row}; else the first missing name. */
    static java.util.Optional<String> missing(NamedStatement statement, SqlRow row) {
        for (String name : statement.parameterNames()) {
            if (!SqlRow.ITEM_ID.equals(name) && !row.parameters().containsKey(name)) {
                return java.util.Optional.of(name);
            }
        }
        return java.util.Optional.empty();
    }

    void bind(PreparedStatement ps, NamedStatement statement, SqlRow row) throws SQLException {
        List<String> placeholders = statement.placeholders();
        for (int i = 0; i < placeholders.size(); i++) {
            String name = placeholders.get(i);
            Object value = SqlRow.ITEM_ID.equals(name) ? row.itemId() : row.parameters().get(name);
            set(ps, i + 1, value);
        }
    }

    private void set(PreparedStatement ps, int index, Object value) throws SQLException {
        if (value == null) {
            ps.setNull(index, Types.NULL);
        } else if (value instanceof String s) {
            ps.setString(index, s);
        } else if (value instanceof Long l) {
            ps.setLong(index, l);
        } else if (value instanceof Double d) {
            ps.setDouble(index, d);
        } else if (value instanceof Integer i) {
            ps.setInt(index, i);
        } else if (value instanceof Boolean b) {
            ps.setBoolean(index, b);
        } else if (value instanceof BigDecimal d) {
            ps.setBigDecimal(index, d);
        } else if (value instanceof Instant t) {
            ps.setTimestamp(index, Timestamp.from(t), utc);
        } else {
            throw new IllegalArgumentException("unsupported parameter value " + value.getClass().getName());
        }
    }
}
