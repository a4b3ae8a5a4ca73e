package io.qubiq.sink.mqtt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qubiq.core.error.PermanentException;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

class MqttMessageCodecTest {

    private final MqttMessageCodec codec = new MqttMessageCodec();

    @Test
    void messagesRoundTripWithEveryQosRetainFlagAndPayload() throws Exception {
        for (MqttMessage message : List.of(
                MqttMessage.of("plant/line1/temp", "21.5", 0, false),
                MqttMessage.of("ünïcödé/topic", "", 1, true),
                new MqttMessage("binary", new byte[] {0, 1, (byte) 0xff, 10}, 2, false),
                MqttMessage.of("t".repeat(200), "x".repeat(70_000), 1, false))) {
            assertThat(codec.decode(codec.encode(message))).isEqualTo(message);
        }
    }

    @Test
    void theLayoutIsVersionFlagsTopicLengthTopicPayload() {
        // a stored fixture of version 1: changing the layout must add a version, not break this
        assertThat(HexFormat.of().formatHex(codec.encode(MqttMessage.of("a/b", "21", 1, true))))
                .isEqualTo("0105" + "03" + "612f62" + "3231");
        assertThat(HexFormat.of().formatHex(codec.encode(MqttMessage.of("t".repeat(200), "", 2, false))))
                .startsWith("0102" + "c801");
    }

    @Test
    void bytesThatAreNotAVersion1MessageArePermanentFailures() {
        for (String hex : List.of("", "01", "0101", "020103612f6232", "0108" + "03612f62", "0103" + "03612f62",
                "0101" + "05612f62", "0101" + "ffffffff0f", "0101" + "03612b62", "0101" + "02c328", "0101" + "00")) {
            byte[] bytes = HexFormat.of().parseHex(hex);
            assertThatThrownBy(() -> codec.decode(bytes)).as(hex)
                    .isInstanceOf(PermanentException.class)
                    .hasMessageContaining("undecodable MQTT message");
        }
    }

    @Test
    void thePreviewShowsTopicQosRetainAndATextOrHexExcerpt() {
        assertThat(codec.preview(MqttMessage.of("plant/line1/temp", "{\"v\": 21.5}", 1, false)))
                .isEqualTo("plant/line1/temp qos=1 retain=false 11 bytes \"{\\\"v\\\": 21.5}\"");
        assertThat(codec.preview(new MqttMessage("bin", new byte[] {0, 1, (byte) 0xab}, 0, true)))
                .isEqualTo("bin qos=0 retain=true 3 bytes hex 0001ab");
        assertThat(codec.preview(MqttMessage.of("long", "é".repeat(100), 2, false)))
                .startsWith("long qos=2 retain=false 200 bytes \"éé").endsWith("é…\"");
    }
}
