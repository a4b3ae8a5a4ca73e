package io.qubiq.connector.mqtt;

import com.fasterxml.jackson.databind.JsonNode;
import io.qubiq.core.tag.Quality;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Maps the quality field of a JSON payload to a {@link Quality}: {@code true}/{@code false} (Good,
 * Bad), {@code good}/{@code ok}, {@code uncertain}, {@code bad} (any case), the OPC UA names the
 * gateway knows ({@code BadSensorFailure}), a numeric OPC UA status code ({@code 2156658688} or
 * {@code "0x808C0000"}). Anything else is malformed. Stateless.
 */
final class QualityText {

    private static final Map<String, Quality> BY_NAME = List.of(Quality.GOOD, Quality.GOOD_LOCAL_OVERRIDE,
                    Quality.UNCERTAIN, Quality.UNCERTAIN_LAST_USABLE_VALUE,
                    Quality.UNCERTAIN_NO_COMMUNICATION_LAST_USABLE_VALUE, Quality.UNCERTAIN_SENSOR_NOT_ACCURATE,
                    Quality.BAD, Quality.BAD_COMMUNICATION_ERROR, Quality.BAD_TIMEOUT, Quality.BAD_NO_COMMUNICATION,
                    Quality.BAD_WAITING_FOR_INITIAL_DATA, Quality.BAD_TYPE_MISMATCH, Quality.BAD_CONFIGURATION_ERROR,
                    Quality.BAD_NOT_CONNECTED, Quality.BAD_DEVICE_FAILURE, Quality.BAD_SENSOR_FAILURE,
                    Quality.BAD_OUT_OF_SERVICE).stream()
            .collect(Collectors.toUnmodifiableMap(q -> q.label().toLowerCase(Locale.ROOT), Function.identity()));

    private QualityText() {
    }

    static Quality parse(JsonNode node) throws MalformedPayloadException {
        if (node.isBoolean()) {
            return node.booleanValue() ? Quality.GOOD : Quality.BAD;
        }
        if (node.isIntegralNumber() && node.canConvertToLong()) {
            return statusCode(node.longValue(), node.asText());
        }
        if (node.isTextual()) {
            String text = node.textValue().strip().toLowerCase(Locale.ROOT);
            if (text.equals("ok")) {
                return Quality.GOOD;
            }
            Quality named = BY_NAME.get(text);
            if (named != null) {
                return named;
            }
            try {
                if (text.startsWith("0x")) {
                    return statusCode(Long.parseLong(text.substring(2), 16), text);
                }
                return statusCode(Long.parseLong(text), text);
            } catch (NumberFormatException e) {
                // fall through to the error below
            }
        }
        throw new MalformedPayloadException("quality " + ValueConversion.shorten(node.toString()) + " is not"
                + " understood (true/false, good/uncertain/bad, an OPC UA status name or code)");
    }

    private static Quality statusCode(long code, String text) throws MalformedPayloadException {
        if (code < 0 || code > 0xFFFFFFFFL) {
            throw new MalformedPayloadException("quality " + text + " is not a 32-bit OPC UA status code");
        }
        return new Quality((int) code);
    }
}
