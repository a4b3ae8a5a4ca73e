package io.qubiq.connector.mqtt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.qubiq.core.error.TransientException;
import io.qubiq.core.health.ConnectionState;
import io.qubiq.core.tag.DataType;
import io.qubiq.core.tag.Quality;
import io.qubiq.core.tag.TagPath;
import io.qubiq.core.connector.TagWriteResult;
import io.qubiq.mqtt.MqttProtocol;
import io.qubiq.testkit.mqtt.MqttBrokerExtension;
import io.qubiq.testkit.mqtt.TestMqttBroker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(MqttBrokerExtension.class)
class MqttReconnectTest {

    private static final Duration WAIT = Duration.ofSeconds(20);

    private final List<AutoCloseable> resources = new ArrayList<>();

    @AfterEach
    void closeResources() throws Exception {
        for (int i = resources.size() - 1; i >= 0; i--) {
            resources.get(i).close();
        }
    }

    private MqttConnector connector(String id, MqttConnectionConfig config, RecordingPublisher publisher) {
        MqttConnector connector = new MqttConnector("gw", id, config);
        resources.add(connector);
        connector.start(publisher);
        return connector;
    }

    private TestClient client(TestMqttBroker broker) {
        TestClient client = new TestClient(broker.host(), broker.port());
        resources.add(client);
        return client;
    }

    private static void publishUntil(TestClient device, RecordingPublisher publisher, String topic, String payload,
                                     String tag, Object expected) {
        await().atMost(WAIT).pollInterval(Duration.ofMillis(100)).until(() -> {
            device.publish(topic, payload);
            return publisher.latest(tag).map(v -> expected.equals(v.value())).orElse(false);
        });
    }

    @Test
    void afterABrokerRestartTheConnectorReconnectsResubscribesAndValuesFlowAgain(TestMqttBroker broker)
            throws Exception {
        RecordingPublisher publisher = new RecordingPublisher();
        MqttConnector connector = connector("restart", MqttConnectionConfig.of(broker.host(), broker.port(), List.of(
                MqttSubscriptionConfig.plain("rc/temp", "rc/temperature", DataType.FLOAT64),
                MqttSubscriptionConfig.plain("rc/dyn/+", "rc/dyn/{1}", DataType.INT32)))
                .withReconnect(100, 500)
                .withWritableTags(List.of(MqttWritableTagConfig.of("rc/setpoint", "rc/cmd"))), publisher);
        await().atMost(WAIT).until(() -> connector.status().state() == ConnectionState.UP);
        TestClient device = client(broker);
        publishUntil(device, publisher, "rc/temp", "1.0", "rc/temperature", 1.0);
        publishUntil(device, publisher, "rc/dyn/a", "5", "rc/dyn/a", 5);
        device.close();

        broker.stop();

        await().atMost(WAIT).until(() -> connector.status().state() == ConnectionState.DOWN);
        assertThat(connector.status().lastError()).hasValueSatisfying(e -> assertThat(e).contains("lost or refused"));
        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(publisher.latest("rc/temperature").orElseThrow().quality()).isEqualTo(Quality.BAD_NOT_CONNECTED);
            assertThat(publisher.latest("rc/dyn/a").orElseThrow().quality()).isEqualTo(Quality.BAD_NOT_CONNECTED);
        });
        assertThat(publisher.latest("rc/temperature").orElseThrow().value()).isNull();
        assertThat(publisher.latest("rc/dyn/a").orElseThrow().type()).isEqualTo(DataType.INT32);

        CompletableFuture<TagWriteResult> write = connector.write(TagPath.of("rc/setpoint"), 1.0);
        assertThat(write).isCompletedExceptionally();
        try {
            write.get();
        } catch (ExecutionException e) {
            assertThat(e.getCause()).isInstanceOf(TransientException.class)
                    .hasMessageContaining("never buffered");
        }

        broker.start();

        await().atMost(WAIT).until(() -> connector.status().state() == ConnectionState.UP);
        TestClient again = client(broker);
        publishUntil(again, publisher, "rc/temp", "2.0", "rc/temperature", 2.0);
        publishUntil(again, publisher, "rc/dyn/b", "6", "rc/dyn/b", 6);
        assertThat(publisher.latest("rc/temperature").orElseThrow().quality()).isEqualTo(Quality.GOOD);
        assertThat(connector.stats().reconnects()).isGreaterThanOrEqualTo(1);
        assertThat(connector.stats().resubscribes()).isGreaterThanOrEqualTo(1);
        assertThat(connector.stats().errors()).isGreaterThanOrEqualTo(1);
    }

    @Test
    void aConnectorStartedWhileTheBrokerIsDownConnectsOnceItIsUp(TestMqttBroker broker) {
        broker.stop();
        RecordingPublisher publisher = new RecordingPublisher();
        MqttConnector connector = connector("late", MqttConnectionConfig.of(broker.host(), broker.port(), List.of(
                MqttSubscriptionConfig.plain("late/temp", "late/temperature", DataType.FLOAT64)))
                .withReconnect(100, 300), publisher);

        await().atMost(WAIT).until(() -> connector.status().state() == ConnectionState.DOWN);
        await().atMost(WAIT).until(() -> publisher.latest("late/temperature")
                .map(v -> v.quality().equals(Quality.BAD_NOT_CONNECTED)).orElse(false));
        broker.start();

        await().atMost(WAIT).until(() -> connector.status().state() == ConnectionState.UP);
        publishUntil(client(broker), publisher, "late/temp", "3.0", "late/temperature", 3.0);
    }

    @Test
    void aPersistentSessionReceivesQos1MessagesPublishedWhileTheConnectorWasAway(TestMqttBroker broker) {
        MqttConnectionConfig config = MqttConnectionConfig.of(broker.host(), broker.port(), List.of(
                        MqttSubscriptionConfig.plain("ps/temp", "ps/temperature", DataType.FLOAT64)))
                .withPersistentSession("qubiq-test-persistent")
                .withReconnect(100, 500);
        RecordingPublisher first = new RecordingPublisher();
        MqttConnector connector = connector("persistent", config, first);
        TestClient device = client(broker);
        publishUntil(device, first, "ps/temp", "1.0", "ps/temperature", 1.0);
        connector.close();

        device.publish("ps/temp", "7.0", 1, false);
        device.publish("ps/temp", "8.0", 1, false);

        RecordingPublisher second = new RecordingPublisher();
        MqttConnector again = connector("persistent", config, second);
        await().atMost(WAIT).until(() -> second.latest("ps/temperature").map(v -> v.value().equals(8.0)).orElse(false));
        assertThat(second.of("ps/temperature")).extracting(v -> v.value()).containsSubsequence(7.0, 8.0);
        assertThat(again.stats().resubscribes()).isZero();
    }

    @Test
    void anMqtt5PersistentSessionSurvivesABrokerRestartWithoutResubscribing(TestMqttBroker broker) {
        MqttConnectionConfig config = MqttConnectionConfig.of(broker.host(), broker.port(), List.of(
                        MqttSubscriptionConfig.plain("ps5/temp", "ps5/temperature", DataType.FLOAT64)))
                .withProtocol(MqttProtocol.MQTT_5)
                .withPersistentSession("qubiq-test-persistent-5")
                .withReconnect(100, 500);
        RecordingPublisher publisher = new RecordingPublisher();
        MqttConnector connector = connector("persistent5", config, publisher);
        TestClient device = client(broker);
        publishUntil(device, publisher, "ps5/temp", "1.0", "ps5/temperature", 1.0);
        device.close();

        broker.stop();
        await().atMost(WAIT).until(() -> connector.status().state() == ConnectionState.DOWN);
        broker.start();
        await().atMost(WAIT).until(() -> connector.status().state() == ConnectionState.UP);

        publishUntil(client(broker), publisher, "ps5/temp", "2.0", "ps5/temperature", 2.0);
        assertThat(connector.stats().reconnects()).isGreaterThanOrEqualTo(1);
        assertThat(connector.stats().resubscribes()).isZero();
    }
}
