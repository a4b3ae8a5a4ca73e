package io.qubiq.sink.mqtt;

/**
 * The encoded size of the PUBLISH packet the sink sends for a message, as the broker measures it
 * against its maximum packet size: fixed header (one byte and the remaining length as a variable
 * byte integer), topic (two-byte length and UTF-8), packet identifier for QoS 1 and 2, for MQTT 5
 * the property length (the sink sends no properties and no topic alias), and the payload.
 * Stateless.
 */
final class PacketSize {

    /** The largest packet MQTT can encode: remaining length 268,435,455 plus five bytes of fixed header. */
    static final long PROTOCOL_MAXIMUM = 268_435_460L;

    private PacketSize() {
    }

    static long of(MqttMessage message, boolean mqtt5) {
        long remaining = 2L + utf8Length(message.topic())
                + (message.qos() > 0 ? 2 : 0)
                + (mqtt5 ? 1 : 0)
                + message.payloadBytes().length;
        return 1 + variableByteIntegerLength(remaining) + remaining;
    }

    /** The UTF-8 length of {@code text} without encoding it (a lone surrogate counts as the one byte '?' it becomes). */
    static int utf8Length(String text) {
        int length = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                length++;
            } else if (c < 0x800) {
                length += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                length += 4;
                i++;
            } else if (Character.isSurrogate(c)) {
                length++;
            } else {
                length += 3;
            }
        }
        return length;
    }

    private static int variableByteIntegerLength(long value) {
        if (value < 128) {
            return 1;
        }
        if (value < 16_384) {
            return 2;
        }
        if (value < 2_097_152) {
            return 3;
        }
        return 4;
    }
}
