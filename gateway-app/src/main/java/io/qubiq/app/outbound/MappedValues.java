package io.qubiq.app.outbound;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.qubiq.pipeline.expr.ExpressionException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Turns expression results into the value types the sinks' items hold: whole numbers as Long,
 * other numbers as Double (or BigDecimal, kept exact), text, booleans, instants; maps and lists as
 * JSON text where an item holds only scalars. Stateless and thread-safe.
 */
final class MappedValues {

    private static final ObjectMapper JSON = new ObjectMapper().registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);

    private MappedValues() {
    }

    /** A scalar for SQL parameters and QuestDB columns. */
    static Object scalar(Object value, String what) throws ExpressionException {
        if (value == null || value instanceof String || value instanceof Boolean || value instanceof Long
                || value instanceof Double || value instanceof Instant || value instanceof BigDecimal) {
            return value;
        }
        if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return ((Number) value).longValue();
        }
        if (value instanceof Float f) {
            return f.doubleValue();
        }
        if (value instanceof BigInteger big) {
            return big.bitLength() < 64 ? (Object) big.longValue() : new BigDecimal(big);
        }
        if (value instanceof Map<?, ?> || value instanceof List<?>) {
            return json(value, what);
        }
        throw new ExpressionException(what + " yielded a " + value.getClass().getSimpleName()
                + "; expected text, a number, a boolean, an instant, a map or a list");
    }

    /** A value for a MongoDB document: scalars as {@link #scalar}, maps and lists kept as structure. */
    static Object document(Object value, String what) throws ExpressionException {
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> copy = new java.util.LinkedHashMap<>();
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                copy.put(String.valueOf(entry.getKey()), document(entry.getValue(), what + "." + entry.getKey()));
            }
            return copy;
        }
        if (value instanceof List<?> list) {
            List<Object> copy = new java.util.ArrayList<>(list.size());
            for (Object element : list) {
                copy.add(document(element, what));
            }
            return copy;
        }
        return scalar(value, what);
    }

    /** Text for a payload: maps and lists as JSON, text as is, anything else as its plain rendering. */
    static String json(Object value, String what) throws ExpressionException {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new ExpressionException(what + " cannot be written as JSON: " + e.getOriginalMessage(), e);
        }
    }
}
