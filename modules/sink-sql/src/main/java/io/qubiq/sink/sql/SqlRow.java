package io.qubiq.sink.sql;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * One parameterized statement to execute against a SQL database, with the values to bind: for
 * example {@code INSERT INTO readings(tag, value, ts) VALUES (:tag, :value, :ts)} with
 * {@code {tag="line1/temp", value=21.5, ts=Instant}}. The statement uses named parameters
 * ({@code :name}; see {@link NamedStatement} for the grammar). A statement that references
 * {@code :item_id} gets the row's {@link #itemId} bound there, which makes idempotent writes
 * possible ({@code ON CONFLICT (item_id) DO NOTHING}).
 *
 * <p>Parameter values are {@code null}, {@link String}, {@link Integer}, {@link Long},
 * {@link Double}, {@link Boolean}, {@link BigDecimal} or {@link Instant} (bound as a timestamp in
 * UTC). Parameter names are {@code [A-Za-z_][A-Za-z0-9_]*}; {@value #ITEM_ID} is reserved for the
 * item id. The statement is not parsed here: a malformed one is rejected by the sink, as a
 * permanent failure of this row.
 *
 * <p>Immutable; {@code parameters} is an unmodifiable copy that keeps the given order (a compact
 * array-backed map: a row is built for every item a pipeline writes).
 */
public record SqlRow(String itemId, String statement, Map<String, Object> parameters) {

    /** The parameter name bound to {@link #itemId}. */
    public static final String ITEM_ID = "item_id";

    public SqlRow {
        Objects.requireNonNull(itemId, "itemId");
        Objects.requireNonNull(statement, "statement");
        Objects.requireNonNull(parameters, "parameters");
        if (statement.isBlank()) {
            throw new IllegalArgumentException("the statement of SQL row " + itemId + " is blank");
        }
        if (!(parameters instanceof ParameterMap)) {
            String[] names = new String[parameters.size()];
            Object[] values = new Object[names.length];
            int i = 0;
            for (Map.Entry<String, Object> parameter : parameters.entrySet()) {
                if (i == names.length) {
                    throw new IllegalArgumentException("the parameters of SQL row " + itemId + " changed while copied");
                }
                names[i] = requireName(parameter.getKey(), itemId);
                values[i] = requireSupported(parameter.getKey(), parameter.getValue());
                i++;
            }
            if (i != names.length) {
                throw new IllegalArgumentException("the parameters of SQL row " + itemId + " changed while copied");
            }
            parameters = new ParameterMap(names, values);
        }
    }

    /** Whether {@code name} can be a parameter name: {@code [A-Za-z_][A-Za-z0-9_]*}. */
    static boolean isName(CharSequence name) {
        if (name == null || name.length() == 0 || !isNameStart(name.charAt(0))) {
            return false;
        }
        for (int i = 1; i < name.length(); i++) {
            if (!isNamePart(name.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    static boolean isNameStart(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    }

    static boolean isNamePart(char c) {
        return isNameStart(c) || (c >= '0' && c <= '9');
    }

    private static String requireName(String name, String itemId) {
        if (!isName(name)) {
            throw new IllegalArgumentException("invalid parameter name \"" + name + "\" in SQL row " + itemId
                    + ": expected letters, digits and _, not starting with a digit");
        }
        if (ITEM_ID.equals(name)) {
            throw new IllegalArgumentException("parameter name " + ITEM_ID + " is reserved in SQL row " + itemId
                    + ": :" + ITEM_ID + " is bound from the row's item id");
        }
        return name;
    }

    private static Object requireSupported(String name, Object value) {
        if (value == null || value instanceof String || value instanceof Long || value instanceof Integer
                || value instanceof Double || value instanceof Boolean || value instanceof BigDecimal
                || value instanceof Instant) {
            return value;
        }
        throw new IllegalArgumentException("unsupported value for parameter " + name + ": " + value.getClass().getName()
                + " (expected null, String, Integer, Long, Double, Boolean, BigDecimal or Instant)");
    }
}
