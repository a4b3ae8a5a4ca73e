package io.qubiq.connector.mqtt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.qubiq.core.connector.TagWriteResult;
import io.qubiq.core.health.ConnectionState;
import io.qubiq.core.tag.DataType;
import io.qubiq.core.tag.TagPath;
import io.qubiq.mqtt.MqttProtocol;
import io.qubiq.testkit.mqtt.Mosquitto;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The same connector against a second, independent broker: Debian's mosquitto (skipped when not installed). */
class MosquittoInteropTest {

    private static final Duration WAIT = Duration.ofSeconds(15);

    @ParameterizedTest
    @EnumSource(MqttProtocol.class)
    void valuesAndWritesWorkAgainstMosquitto(MqttProtocol protocol) throws Exception {
        try (Mosquitto mosquitto = Mosquitto.startOrSkip();
             MqttConnector connector = new MqttConnector("gw", "mosquitto", MqttConnectionConfig.of(mosquitto.host(),
                     mosquitto.port(), List.of(
                             MqttSubscriptionConfig.plain("m/+/temp", "m/{1}/temperature", DataType.FLOAT64),
                             MqttSubscriptionConfig.json("m/json", "m/json", DataType.INT32, "$.v",
                                     Optional.empty(), Optional.empty())))
                     .withProtocol(protocol)
                     .withWritableTags(List.of(MqttWritableTagConfig.of("m/setpoint", "m/cmd/setpoint"))));
             TestClient device = new TestClient(mosquitto.host(), mosquitto.port())) {
            RecordingPublisher publisher = new RecordingPublisher();
            connector.start(publisher);
            await().atMost(WAIT).until(() -> connector.status().state() == ConnectionState.UP);
            device.subscribe("m/cmd/#");

            await().atMost(WAIT).pollInterval(Duration.ofMillis(100)).until(() -> {
                device.publish("m/a/temp", "20.5");
                return publisher.latest("m/a/temperature").isPresent();
            });
            device.publish("m/json", "{\"v\": 7}");
            device.publish("m/json", "{\"v\": \"seven\"}");
            TagWriteResult write = connector.write(TagPath.of("m/setpoint"), 3).get(10, TimeUnit.SECONDS);

            await().atMost(WAIT).until(() -> publisher.latest("m/json").isPresent()
                    && connector.stats().malformedPayloads() == 1);
            assertThat(publisher.latest("m/a/temperature").orElseThrow().value()).isEqualTo(20.5);
            assertThat(publisher.latest("m/json").orElseThrow().value()).isEqualTo(7);
            assertThat(write.accepted()).isTrue();
            await().atMost(WAIT).untilAsserted(() -> assertThat(device.received())
                    .contains(new TestClient.Received("m/cmd/setpoint", "3", 1, false)));
        }
    }
}
