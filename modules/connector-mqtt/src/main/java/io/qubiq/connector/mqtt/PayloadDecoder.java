package io.qubiq.connector.mqtt;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.qubiq.core.tag.DataType;
import io.qubiq.core.tag.Quality;
import io.qubiq.core.tag.TagPath;
import io.qubiq.core.tag.TagValue;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;

/**
 * Turns one message payload into a tag value, as one subscription declares: {@code plain} (the
 * whole payload, UTF-8, is the value) or {@code json} (the value at {@code value_path}; the source
 * time at {@code timestamp_path} and the quality at {@code quality_path} when configured). The
 * source time is the payload's timestamp, else the receive time; the server time is always the
 * receive time. A JSON message without a value but with a Bad quality becomes a value-less Bad
 * tag value. Everything that cannot be read is a {@link MalformedPayloadException} naming what
 * was wrong. Immutable; thread-safe.
 */
final class PayloadDecoder {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final PayloadFormat format;
    private final DataType type;
    private final Optional<JsonPathReader> value;
    private final Optional<JsonPathReader> timestamp;
    private final Optional<JsonPathReader> quality;

    PayloadDecoder(MqttSubscriptionConfig subscription) {
        this.format = subscription.payload();
        this.type = subscription.dataType();
        this.value = subscription.valuePath().map(JsonPathReader::new);
        this.timestamp = subscription.timestampPath().map(JsonPathReader::new);
        this.quality = subscription.qualityPath().map(JsonPathReader::new);
    }

    DataType type() {
        return type;
    }

    TagValue decode(TagPath tag, byte[] payload, Instant receivedAt) throws MalformedPayloadException {
        String text = utf8(payload);
        if (format == PayloadFormat.PLAIN) {
            return new TagValue(tag, ValueConversion.fromText(text, type), type, Quality.GOOD, receivedAt, receivedAt);
        }
        JsonNode document;
        try {
            document = JSON.readTree(text);
        } catch (JacksonException e) {
            throw new MalformedPayloadException("payload is not JSON: " + e.getOriginalMessage());
        }
        if (document == null || document.isMissingNode()) {
            throw new MalformedPayloadException("payload is empty, expected a JSON document");
        }
        Quality q = quality.isPresent() ? readQuality(document) : Quality.GOOD;
        Instant sourceTime = timestamp.isPresent() ? readTimestamp(document, receivedAt) : receivedAt;
        JsonPathReader valueReader = value.orElseThrow();
        Optional<JsonNode> node = valueReader.read(document);
        if (node.isEmpty()) {
            if (q.isBad()) {
                return new TagValue(tag, null, type, q, sourceTime, receivedAt);
            }
            throw new MalformedPayloadException("no value at " + valueReader.path());
        }
        Object converted;
        try {
            converted = ValueConversion.fromJson(node.get(), type);
        } catch (MalformedPayloadException e) {
            throw new MalformedPayloadException("value at " + valueReader.path() + ": " + e.getMessage());
        }
        return new TagValue(tag, converted, type, q, sourceTime, receivedAt);
    }

    private Quality readQuality(JsonNode document) throws MalformedPayloadException {
        Optional<JsonNode> node = quality.orElseThrow().read(document);
        return node.isPresent() ? QualityText.parse(node.get()) : Quality.GOOD;
    }

    private Instant readTimestamp(JsonNode document, Instant receivedAt) throws MalformedPayloadException {
        Optional<JsonNode> node = timestamp.orElseThrow().read(document);
        return node.isPresent() ? SourceTimestamp.parseJson(node.get()) : receivedAt;
    }

    private String utf8(byte[] payload) throws MalformedPayloadException {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(payload)).toString();
        } catch (CharacterCodingException e) {
            throw new MalformedPayloadException("payload of " + payload.length + " bytes is not UTF-8 text (the "
                    + format.name().toLowerCase(Locale.ROOT) + " format expects text)");
        }
    }
}
