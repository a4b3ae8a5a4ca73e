package io.qubiq.connector.mqtt;

import com.fasterxml.jackson.databind.JsonNode;
import io.qubiq.core.tag.DataType;
import java.math.BigDecimal;
import java.util.Locale;

/**
 * Converts payload text or a JSON node to the Java carrier of a tag's {@link DataType}: booleans
 * from true/false or 1/0, integers only from whole numbers within range, floats from decimal
 * numbers (not NaN or infinity), strings as written, datetimes as {@link SourceTimestamp} reads
 * them. Anything else is a {@link MalformedPayloadException}. Stateless.
 */
final class ValueConversion {

    private ValueConversion() {
    }

    static Object fromText(String raw, DataType type) throws MalformedPayloadException {
        if (type == DataType.STRING) {
            return raw;
        }
        String text = raw.strip();
        switch (type) {
            case BOOLEAN -> {
                String lower = text.toLowerCase(Locale.ROOT);
                if (lower.equals("true") || lower.equals("1")) {
                    return Boolean.TRUE;
                }
                if (lower.equals("false") || lower.equals("0")) {
                    return Boolean.FALSE;
                }
                throw new MalformedPayloadException("\"" + shorten(text) + "\" is not a boolean (true, false, 1 or 0)");
            }
            case INT32, INT64, FLOAT32, FLOAT64 -> {
                return fromNumber(parseNumber(text, type), type, text);
            }
            case DATETIME -> {
                return SourceTimestamp.parseText(text);
            }
            default -> throw new IllegalStateException("unhandled type " + type);
        }
    }

    static Object fromJson(JsonNode node, DataType type) throws MalformedPayloadException {
        if (node.isTextual()) {
            return fromText(node.textValue(), type);
        }
        switch (type) {
            case STRING -> {
                return node.isValueNode() ? node.asText() : node.toString();
            }
            case BOOLEAN -> {
                if (node.isBoolean()) {
                    return node.booleanValue();
                }
                if (node.isNumber()) {
                    return fromText(node.asText(), type);
                }
                throw new MalformedPayloadException(shorten(node.toString()) + " is not a boolean");
            }
            case INT32, INT64, FLOAT32, FLOAT64 -> {
                if (!node.isNumber()) {
                    throw new MalformedPayloadException(shorten(node.toString()) + " is not a number");
                }
                return fromNumber(node.decimalValue(), type, node.asText());
            }
            case DATETIME -> {
                return SourceTimestamp.parseJson(node);
            }
            default -> throw new IllegalStateException("unhandled type " + type);
        }
    }

    private static BigDecimal parseNumber(String text, DataType type) throws MalformedPayloadException {
        try {
            return new BigDecimal(text);
        } catch (NumberFormatException e) {
            throw new MalformedPayloadException("\"" + shorten(text) + "\" is not a number (the tag is "
                    + type.name().toLowerCase(Locale.ROOT) + ")");
        }
    }

    private static Object fromNumber(BigDecimal number, DataType type, String text) throws MalformedPayloadException {
        try {
            return switch (type) {
                case INT32 -> number.intValueExact();
                case INT64 -> number.longValueExact();
                case FLOAT32 -> finite(number.floatValue(), text);
                case FLOAT64 -> finite(number.doubleValue(), text);
                default -> throw new IllegalStateException("not numeric: " + type);
            };
        } catch (ArithmeticException e) {
            throw new MalformedPayloadException(shorten(text) + " is not a whole number within the range of "
                    + type.name().toLowerCase(Locale.ROOT));
        }
    }

    private static float finite(float value, String text) throws MalformedPayloadException {
        if (Float.isInfinite(value)) {
            throw new MalformedPayloadException(shorten(text) + " is out of the range of float32");
        }
        return value;
    }

    private static double finite(double value, String text) throws MalformedPayloadException {
        if (Double.isInfinite(value)) {
            throw new MalformedPayloadException(shorten(text) + " is out of the range of float64");
        }
        return value;
    }

    /** At most 60 characters of {@code text}, for error messages about untrusted payloads. */
    static String shorten(String text) {
        return text.length() <= 60 ? text : text.substring(0, 57) + "...";
    }
}
