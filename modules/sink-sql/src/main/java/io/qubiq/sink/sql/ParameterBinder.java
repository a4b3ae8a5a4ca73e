package io.qubiq.sink.sql;

import java.math.BigDecimal;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.util.Calendar;
import java.util.List;
import java.util.Optional;
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

    /** The first parameter of {@code statement} that {@code row} has no value for, if any. */
    static Optional<String> missing(NamedStatement statement, SqlRow row) {
        ParameterMap parameters = (ParameterMap) row.parameters();
        List<String> placeholders = statement.placeholders();
        int[] hints = statement.placeholderHints();
        for (int i = 0; i < placeholders.size(); i++) {
            if (hints[i] >= 0 && parameters.indexOf(placeholders.get(i), hints[i]) < 0) {
                return Optional.of(placeholders.get(i));
            }
        }
        return Optional.empty();
    }

    /** Binds every placeholder; the row was checked with {@link #missing}. */
    void bind(PreparedStatement ps, NamedStatement statement, SqlRow row) throws SQLException {
        ParameterMap parameters = (ParameterMap) row.parameters();
        List<String> placeholders = statement.placeholders();
        int[] hints = statement.placeholderHints();
        for (int i = 0; i < placeholders.size(); i++) {
            Object value = hints[i] < 0 ? row.itemId()
                    : parameters.value(parameters.indexOf(placeholders.get(i), hints[i]));
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
