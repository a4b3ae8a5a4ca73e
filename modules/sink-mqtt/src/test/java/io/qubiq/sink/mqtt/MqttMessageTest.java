package io.qubiq.sink.mqtt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class MqttMessageTest {

    @Test
    void aMessageComparesAndHashesItsPayloadByContent() {
        MqttMessage a = new MqttMessage("plant/line1/temp", new byte[] {1, 2, 3}, 1, false);
        MqttMessage b = new MqttMessage("plant/line1/temp", new byte[] {1, 2, 3}, 1, false);

        assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
        assertThat(a).isNotEqualTo(new MqttMessage("plant/line1/temp", new byte[] {1, 2, 4}, 1, false));
        assertThat(a).isNotEqualTo(new MqttMessage("plant/line1/temp", new byte[] {1, 2, 3}, 2, false));
        assertThat(a).isNotEqualTo(new MqttMessage("plant/line1/temp", new byte[] {1, 2, 3}, 1, true));
        assertThat(a).isNotEqualTo(new MqttMessage("plant/line2/temp", new byte[] {1, 2, 3}, 1, false));
    }

    @Test
    void thePayloadIsCopiedInAndOutSoTheMessageCannotChange() {
        byte[] payload = "21.5".getBytes(StandardCharsets.UTF_8);
        MqttMessage message = new MqttMessage("t", payload, 0, false);
        payload[0] = 'X';
        message.payload()[1] = 'Y';

        assertThat(new String(message.payload(), StandardCharsets.UTF_8)).isEqualTo("21.5");
    }

    @Test
    void toStringShowsTopicQosRetainAndAShortPayload() {
        assertThat(MqttMessage.of("a/b", "21.5 °C", 1, true).toString())
                .isEqualTo("MqttMessage[topic=a/b, qos=1, retain=true, payload=8 bytes \"21.5 °C\"]");
        assertThat(new MqttMessage("a/b", new byte[] {0, (byte) 0xff}, 0, false).toString()).contains("hex 00ff");
        assertThat(MqttMessage.of("a/b", "x".repeat(100), 0, false).toString()).contains("100 bytes", "x…\"");
    }

    @Test
    void anInvalidMessageIsRefusedWithAClearReason() {
        assertThatThrownBy(() -> MqttMessage.of("", "1", 1, false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("needs a topic");
        assertThatThrownBy(() -> MqttMessage.of(null, "1", 1, false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("needs a topic");
        assertThatThrownBy(() -> MqttMessage.of("plant/+/temp", "1", 1, false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("wildcards");
        assertThatThrownBy(() -> MqttMessage.of("plant/#", "1", 1, false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("wildcards");
        assertThatThrownBy(() -> MqttMessage.of("a\u0000b", "1", 1, false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("NUL");
        assertThatThrownBy(() -> MqttMessage.of("a/\uD800/b", "1", 1, false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unpaired surrogate at index 2");
        assertThatThrownBy(() -> MqttMessage.of("\uDC00", "1", 1, false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unpaired surrogate at index 0");
        assertThatThrownBy(() -> MqttMessage.of("t".repeat(65_536), "1", 1, false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("65535");
        assertThatThrownBy(() -> new MqttMessage("t", null, 1, false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("payload");
        assertThatThrownBy(() -> MqttMessage.of("t", "1", 3, false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("qos must be 0, 1 or 2, was 3");
        assertThatThrownBy(() -> MqttMessage.of("t", "1", -1, false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("was -1");
    }

    @Test
    void anEmptyPayloadTheLongestTopicAndCharactersBeyondTheBasicPlaneAreAllowed() {
        assertThat(MqttMessage.of("emoji/\uD83D\uDE00", "", 0, false).topic()).endsWith("\uD83D\uDE00");
        assertThat(new MqttMessage("t", new byte[0], 0, false).payload()).isEmpty();
        assertThat(MqttMessage.of("t".repeat(65_535), "", 2, true).topic()).hasSize(65_535);
    }
}
