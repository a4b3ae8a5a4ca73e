package io.qubiq.connector.mqtt;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * The payload of a tag write: {@code plain} is the value as text (numbers as Java prints them,
 * booleans as true/false, datetimes as ISO-8601), {@code json} is {@code {"value": ...}} with the
 * value as a JSON number, boolean or string. Values of other types are refused. Stateless.
 */
final class CommandEncoder {

    private static final ObjectMapper JSON = new ObjectMapper();

    private CommandEncoder() {
    }

    static byte[] encode(PayloadFormat format, Object value) {
        if (!(value instanceof Number || value instanceof Boolean || value instanceof String
                || value instanceof Instant)) {
            throw new IllegalArgumentException("cannot write a " + (value == null ? "null" : value.getClass().getSimpleName())
                    + " (use a number, boolean, string or Instant)");
        }
        if (format == PayloadFormat.PLAIN) {
            return value.toString().getBytes(StandardCharsets.UTF_8);
        }
        ObjectNode document = JSON.createObjectNode();
        if (value instanceof Number number) {
            document.put("value", new java.math.BigDecimal(number.toString()));
        } else if (value instanceof Boolean bool) {
            document.put("value", bool);
        } else {
            document.put("value", value.toString());
        }
        try {
            return JSON.writeValueAsBytes(document);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("cannot encode " + value + " as JSON", e);
        }
    }
}
