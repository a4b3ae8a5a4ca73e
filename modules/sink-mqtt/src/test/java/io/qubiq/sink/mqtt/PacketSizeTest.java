package io.qubiq.sink.mqtt;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Packet sizes worked out by hand from the MQTT specifications; {@link HiveMqSinkTest} and
 * {@link MosquittoSinkTest} show real brokers take a packet of exactly their limit.
 */
class PacketSizeTest {

    @Test
    void aSmallQos1PublishIsHeaderTopicPacketIdAndPayload() {
        MqttMessage message = MqttMessage.of("a/b", "21.5", 1, false);
        // 1 type byte + 1 length byte + (2 + 3 topic) + 2 packet id + 4 payload
        assertThat(PacketSize.of(message, false)).isEqualTo(13);
        // MQTT 5 adds a property length byte (no properties)
        assertThat(PacketSize.of(message, true)).isEqualTo(14);
    }

    @Test
    void qos0HasNoPacketIdentifier() {
        assertThat(PacketSize.of(MqttMessage.of("a/b", "21.5", 0, false), false)).isEqualTo(11);
    }

    @Test
    void theRemainingLengthGrowsByteByByteAtItsBoundaries() {
        // remaining length 127 -> one byte; 128 -> two bytes
        assertThat(PacketSize.of(MqttMessage.of("t", "x".repeat(122), 1, false), false)).isEqualTo(1 + 1 + 127);
        assertThat(PacketSize.of(MqttMessage.of("t", "x".repeat(123), 1, false), false)).isEqualTo(1 + 2 + 128);
        // 16,384 -> three bytes
        assertThat(PacketSize.of(MqttMessage.of("t", "x".repeat(16_379), 1, false), false)).isEqualTo(1 + 3 + 16_384);
    }

    @Test
    void topicLengthCountsUtf8Bytes() {
        assertThat(PacketSize.of(MqttMessage.of("é", "", 0, false), false)).isEqualTo(1 + 1 + 2 + 2);
    }

    @Test
    void theUtf8LengthMatchesTheEncoder() {
        for (String text : new String[] {"", "a/b", "é", "温度/センサー", "emoji/\uD83D\uDE00", "lone/\uD800/x", "\uDC00"}) {
            assertThat(PacketSize.utf8Length(text)).as(text)
                    .isEqualTo(text.getBytes(java.nio.charset.StandardCharsets.UTF_8).length);
        }
    }
}
