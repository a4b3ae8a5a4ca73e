package io.qubiq.connector.mqtt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.qubiq.core.health.ConnectionState;
import io.qubiq.core.tag.DataType;
import io.qubiq.testkit.mqtt.MqttBrokerExtension;
import io.qubiq.testkit.mqtt.TestMqttBroker;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(MqttBrokerExtension.class)
class MessageTapTest {

    private static final Duration WAIT = Duration.ofSeconds(15);

    @Test
    void aTapHearsRawMessagesOfItsFilterBesideTheTagRoutes(TestMqttBroker broker) throws Exception {
        List<String> heard = new CopyOnWriteArrayList<>();
        RecordingPublisher publisher = new RecordingPublisher();
        MqttConnector connector = new MqttConnector("gw", "tapped", MqttConnectionConfig.of(broker.host(),
                broker.port(), List.of(MqttSubscriptionConfig.plain("line/temp", "line/temp", DataType.FLOAT64))));
        try (connector; TestClient device = new TestClient(broker.host(), broker.port())) {
            AutoCloseable tap = connector.tap("line/batches/+",
                    (topic, payload) -> heard.add(topic + " " + new String(payload, StandardCharsets.UTF_8)));
            connector.start(publisher);
            await().atMost(WAIT).until(() -> connector.status().state() == ConnectionState.UP);

            await().atMost(WAIT).pollInterval(Duration.ofMillis(100)).until(() -> {
                device.publish("line/batches/b1", "{\"qty\":5}");
                return !heard.isEmpty();
            });
            device.publish("line/temp", "21.5");
            await().atMost(WAIT).until(() -> publisher.latest("line/temp").isPresent());

            assertThat(heard).allMatch(message -> message.equals("line/batches/b1 {\"qty\":5}"));
            assertThat(connector.stats().unmatchedMessages()).isZero();
            tap.close();
            int before = heard.size();
            device.publish("line/batches/b2", "{}");
            device.publish("line/temp", "22.5");
            await().atMost(WAIT).until(() -> publisher.latest("line/temp").orElseThrow().value().equals(22.5));
            assertThat(heard).hasSize(before);
        }
    }

    @Test
    void aTapMustBeAddedBeforeTheConnectionStarts(TestMqttBroker broker) {
        MqttConnector connector = new MqttConnector("gw", "late", MqttConnectionConfig.of(broker.host(),
                broker.port(), List.of()));
        try (connector) {
            connector.start(new RecordingPublisher());
            assertThatThrownBy(() -> connector.tap("a/#", (topic, payload) -> { }))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("before the connection starts");
        }
    }
}
