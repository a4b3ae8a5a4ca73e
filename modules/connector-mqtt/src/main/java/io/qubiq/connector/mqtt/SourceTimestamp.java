package io.qubiq.connector.mqtt;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.OffsetDateTime;

/**
 * Reads a source timestamp from a payload: ISO-8601 text with a zone ({@code 2026-03-01T12:00:00Z},
 * {@code 2026-03-01T13:00:00.250+01:00}) or epoch milliseconds (a JSON number or digits).
 * Text without a zone is refused, since its instant would be a guess. Stateless.
 */
final class SourceTimestamp {

    private SourceTimestamp() {
    }

    static Instant parseJson(JsonNode node) throws MalformedPayloadException {
        if (node.isIntegralNumber() && node.canConvertToLong()) {
            return epochMillis(node.longValue());
        }
        if (node.isNumber()) {
            return epochMillis((long) Math.floor(node.doubleValue()));
        }
        if (node.isTextual()) {
            return parseText(node.textValue());
        }
        throw new MalformedPayloadException("timestamp " + ValueConversion.shorten(node.toString())
                + " is neither ISO-8601 text nor epoch milliseconds");
    }

    static Instant parseText(String raw) throws MalformedPayloadException {
        String text = raw.strip();
        if (!text.isEmpty() && text.chars().allMatch(Character::isDigit) && text.length() <= 15) {
            return epochMillis(Long.parseLong(text));
        }
        try {
            return OffsetDateTime.parse(text).toInstant();
        } catch (DateTimeException e) {
            try {
                return Instant.parse(text);
            } catch (DateTimeException again) {
                throw new MalformedPayloadException("timestamp \"" + ValueConversion.shorten(text) + "\" is neither"
                        + " ISO-8601 with a zone (2026-03-01T12:00:00Z) nor epoch milliseconds");
            }
        }
    }

    private static Instant epochMillis(long millis) throws MalformedPayloadException {
        try {
            return Instant.ofEpochMilli(millis);
        } catch (DateTimeException e) {
            throw new MalformedPayloadException("timestamp " + millis + " is out of range");
        }
    }
}
