package io.qubiq.sink.mongodb;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.bson.types.Decimal128;

/**
 * The value types a {@link MongoDocument} may hold, checked and deep-copied in one pass. Maps keep
 * their key order; copies are unmodifiable. Stateless.
 */
final class FieldValues {

    /** Deeper than any sensible document; guards the recursion against cyclic or absurd input. */
    static final int MAX_DEPTH = 100;

    private FieldValues() {
    }

    /** A checked, unmodifiable deep copy of a document's fields. */
    static Map<String, Object> copyDocument(Map<String, Object> fields, String owner) {
        return copyMap(fields, owner, "", 0);
    }

    private static Map<String, Object> copyMap(Map<?, ?> map, String owner, String path, int depth) {
        if (depth > MAX_DEPTH) {
            throw new IllegalArgumentException(owner + ": nested deeper than " + MAX_DEPTH + " levels at " + path);
        }
        Map<String, Object> copy = new LinkedHashMap<>(Math.max(4, (int) (map.size() / 0.75f) + 1));
        for (Map.Entry<?, ?> entry : map.entrySet()) {
            if (!(entry.getKey() instanceof String name)) {
                throw new IllegalArgumentException(owner + ": field names must be strings, found "
                        + entry.getKey() + " in " + (path.isEmpty() ? "the document" : path));
            }
            if (name.indexOf('\0') >= 0) {
                throw new IllegalArgumentException(owner + ": field name \"" + name.replace("\0", "\\0")
                        + "\" contains NUL");
            }
            String at = path.isEmpty() ? name : path + "." + name;
            copy.put(name, copyValue(entry.getValue(), owner, at, depth + 1));
        }
        return Collections.unmodifiableMap(copy);
    }

    private static List<Object> copyList(List<?> list, String owner, String path, int depth) {
        if (depth > MAX_DEPTH) {
            throw new IllegalArgumentException(owner + ": nested deeper than " + MAX_DEPTH + " levels at " + path);
        }
        List<Object> copy = new ArrayList<>(list.size());
        for (int i = 0; i < list.size(); i++) {
            copy.add(copyValue(list.get(i), owner, path + "[" + i + "]", depth + 1));
        }
        return Collections.unmodifiableList(copy);
    }

    private static Object copyValue(Object value, String owner, String path, int depth) {
        if (value == null || value instanceof String || value instanceof Integer || value instanceof Long
                || value instanceof Double || value instanceof Boolean || value instanceof Instant) {
            return value;
        }
        if (value instanceof BigDecimal decimal) {
            checkDecimal128(decimal, owner, path);
            return decimal;
        }
        if (value instanceof Map<?, ?> map) {
            return copyMap(map, owner, path, depth);
        }
        if (value instanceof List<?> list) {
            return copyList(list, owner, path, depth);
        }
        throw new IllegalArgumentException(owner + ": field " + path + " has a " + value.getClass().getName()
                + "; allowed are null, String, Integer, Long, Double, Boolean, BigDecimal, Instant, Map and List");
    }

    private static void checkDecimal128(BigDecimal decimal, String owner, String path) {
        try {
            new Decimal128(decimal);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(owner + ": field " + path + " = " + decimal
                    + " does not fit Decimal128 (34 significant digits, exponent -6176 to 6111): " + e.getMessage(), e);
        }
    }
}
