package io.qubiq.connector.mqtt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qubiq.core.tag.DataType;
import io.qubiq.core.tag.Quality;
import io.qubiq.core.tag.TagPath;
import io.qubiq.core.tag.TagValue;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PayloadDecoderTest {

    private static final TagPath TAG = TagPath.of("t");
    private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");

    private static TagValue plain(DataType type, String payload) throws MalformedPayloadException {
        return new PayloadDecoder(MqttSubscriptionConfig.plain("t", "t", type))
                .decode(TAG, payload.getBytes(StandardCharsets.UTF_8), NOW);
    }

    private static TagValue json(DataType type, String payload) throws MalformedPayloadException {
        return new PayloadDecoder(MqttSubscriptionConfig.json("t", "t", type, "$.v", Optional.of("ts"), Optional.of("q")))
                .decode(TAG, payload.getBytes(StandardCharsets.UTF_8), NOW);
    }

    @Test
    void plainTextConvertsToEveryDataType() throws Exception {
        assertThat(plain(DataType.BOOLEAN, "1").value()).isEqualTo(true);
        assertThat(plain(DataType.INT32, "-7").value()).isEqualTo(-7);
        assertThat(plain(DataType.INT64, "9000000000").value()).isEqualTo(9_000_000_000L);
        assertThat(plain(DataType.FLOAT32, "1.5").value()).isEqualTo(1.5f);
        assertThat(plain(DataType.FLOAT64, "1e3").value()).isEqualTo(1000.0);
        assertThat(plain(DataType.STRING, " x ").value()).isEqualTo(" x ");
        assertThat(plain(DataType.DATETIME, "2026-03-01T13:00:00+01:00").value()).isEqualTo(NOW);
        assertThat(plain(DataType.FLOAT64, "2").sourceTime()).isEqualTo(NOW);
    }

    @Test
    void valuesThatDoNotFitTheDataTypeAreMalformed() {
        assertThatThrownBy(() -> plain(DataType.INT32, "1.5")).isInstanceOf(MalformedPayloadException.class);
        assertThatThrownBy(() -> plain(DataType.INT32, "3000000000")).isInstanceOf(MalformedPayloadException.class);
        assertThatThrownBy(() -> plain(DataType.FLOAT64, "NaN")).isInstanceOf(MalformedPayloadException.class);
        assertThatThrownBy(() -> plain(DataType.BOOLEAN, "yes")).isInstanceOf(MalformedPayloadException.class);
        assertThatThrownBy(() -> plain(DataType.DATETIME, "2026-03-01T12:00:00"))
                .hasMessageContaining("ISO-8601 with a zone");
        assertThatThrownBy(() -> new PayloadDecoder(MqttSubscriptionConfig.plain("t", "t", DataType.STRING))
                .decode(TAG, new byte[] {(byte) 0xff, (byte) 0xfe}, NOW)).hasMessageContaining("not UTF-8");
    }

    @Test
    void jsonTimestampsAreIsoTextOrEpochMilliseconds() throws Exception {
        assertThat(json(DataType.FLOAT64, "{\"v\": 1, \"ts\": 1772366400000}").sourceTime())
                .isEqualTo(Instant.ofEpochMilli(1772366400000L));
        assertThat(json(DataType.FLOAT64, "{\"v\": 1, \"ts\": \"2026-03-01T12:00:00Z\"}").sourceTime()).isEqualTo(NOW);
        assertThat(json(DataType.FLOAT64, "{\"v\": 1}").sourceTime()).isEqualTo(NOW);
        assertThatThrownBy(() -> json(DataType.FLOAT64, "{\"v\": 1, \"ts\": true}"))
                .isInstanceOf(MalformedPayloadException.class);
    }

    @Test
    void jsonQualitiesMapToOpcUaStatusCodes() throws Exception {
        assertThat(json(DataType.FLOAT64, "{\"v\": 1, \"q\": true}").quality()).isEqualTo(Quality.GOOD);
        assertThat(json(DataType.FLOAT64, "{\"v\": 1, \"q\": \"UNCERTAIN\"}").quality()).isEqualTo(Quality.UNCERTAIN);
        assertThat(json(DataType.FLOAT64, "{\"v\": 1, \"q\": \"0x808C0000\"}").quality())
                .isEqualTo(Quality.BAD_SENSOR_FAILURE);
        assertThat(json(DataType.FLOAT64, "{\"v\": 1, \"q\": 2156527616}").quality()).isEqualTo(Quality.BAD_NOT_CONNECTED);
        assertThat(json(DataType.FLOAT64, "{\"q\": \"bad\"}").value()).isNull();
        assertThatThrownBy(() -> json(DataType.FLOAT64, "{\"v\": 1, \"q\": \"meh\"}"))
                .hasMessageContaining("quality");
        assertThatThrownBy(() -> json(DataType.FLOAT64, "{\"q\": \"good\"}")).hasMessageContaining("no value at $.v");
    }

    @Test
    void jsonPathsReadNestedFieldsAndArrayElements() throws Exception {
        TagValue value = new PayloadDecoder(MqttSubscriptionConfig.json("t", "t", DataType.INT32, "data.list[1].v",
                Optional.empty(), Optional.empty()))
                .decode(TAG, "{\"data\": {\"list\": [{\"v\": 1}, {\"v\": 2}]}}".getBytes(StandardCharsets.UTF_8), NOW);
        assertThat(value.value()).isEqualTo(2);
        assertThat(JsonPathReader.problem("$.a.b")).isEmpty();
        assertThat(JsonPathReader.problem("a[x]")).isPresent();
        assertThat(JsonPathReader.problem("a..b")).isPresent();
    }
}
