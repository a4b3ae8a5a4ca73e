package io.qubiq.sink.mqtt;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * One message for the MQTT sink to publish: a topic name, the payload bytes, the QoS and the retain
 * flag. Checked when made, so a message that reaches the sink can always be put on the wire: the
 * topic is not empty, has no wildcard ({@code +}, {@code #}), no NUL character and no unpaired
 * surrogate, and is at most 65535 bytes of UTF-8; the QoS is 0, 1 or 2.
 *
 * <p>Immutable: the payload is copied in and {@link #payload()} returns a copy. Equality, hash code
 * and {@link #toString()} compare and show the payload by content.
 */
public record MqttMessage(String topic, byte[] payload, int qos, boolean retain) {

    /** The longest topic name MQTT can encode (a two-byte length prefix). */
    public static final int MAX_TOPIC_BYTES = 65_535;
    private static final int TO_STRING_PAYLOAD_BYTES = 32;

    /** @throws IllegalArgumentException when a part is missing or invalid, saying which and why */
    public MqttMessage {
        if (topic == null || topic.isEmpty()) {
            throw new IllegalArgumentException("an MQTT message needs a topic; it was " + (topic == null ? "null" : "empty"));
        }
        if (topic.indexOf('+') >= 0 || topic.indexOf('#') >= 0) {
            throw new IllegalArgumentException("the topic of a published message must not contain the wildcards + or #: \""
                    + topic + "\"");
        }
        if (topic.indexOf('\u0000') >= 0) {
            throw new IllegalArgumentException("the topic must not contain a NUL character: \"" + topic.replace("\u0000", "\\0")
                    + "\"");
        }
        for (int i = 0; i < topic.length(); i++) {
            char c = topic.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < topic.length() && Character.isLowSurrogate(topic.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                throw new IllegalArgumentException("the topic is not well-formed UTF-16 (an unpaired surrogate at index "
                        + i + "), so it has no UTF-8 form");
            }
        }
        int topicBytes = topic.getBytes(StandardCharsets.UTF_8).length;
        if (topicBytes > MAX_TOPIC_BYTES) {
            throw new IllegalArgumentException("the topic is " + topicBytes + " bytes of UTF-8; MQTT allows at most "
                    + MAX_TOPIC_BYTES);
        }
        if (payload == null) {
            throw new IllegalArgumentException("an MQTT message needs a payload (it may be empty, not null)");
        }
        if (qos < 0 || qos > 2) {
            throw new IllegalArgumentException("qos must be 0, 1 or 2, was " + qos);
        }
        payload = payload.clone();
    }

    /** A UTF-8 text payload. */
    public static MqttMessage of(String topic, String text, int qos, boolean retain) {
        if (text == null) {
            throw new IllegalArgumentException("an MQTT message needs a payload (it may be empty, not null)");
        }
        return new MqttMessage(topic, text.getBytes(StandardCharsets.UTF_8), qos, retain);
    }

    /** A copy of the payload. */
    @Override
    public byte[] payload() {
        return payload.clone();
    }

    /** The payload itself, for the sink and the codec of this package, which never change it. */
    byte[] payloadBytes() {
        return payload;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof MqttMessage m && qos == m.qos && retain == m.retain && topic.equals(m.topic)
                && Arrays.equals(payload, m.payload);
    }

    @Override
    public int hashCode() {
        return Objects.hash(topic, Arrays.hashCode(payload), qos, retain);
    }

    /** {@code MqttMessage[topic=a/b, qos=1, retain=false, payload=12 bytes "21.5 °C"]}, payload shortened. */
    @Override
    public String toString() {
        return "MqttMessage[topic=" + topic + ", qos=" + qos + ", retain=" + retain + ", payload=" + payload.length
                + " bytes " + PayloadExcerpt.of(payload, TO_STRING_PAYLOAD_BYTES) + "]";
    }
}
