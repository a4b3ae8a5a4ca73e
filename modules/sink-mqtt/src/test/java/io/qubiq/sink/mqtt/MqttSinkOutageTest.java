package io.qubiq.sink.mqtt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import io.qubiq.core.error.TransientException;
import io.qubiq.core.health.ConnectionState;
import io.qubiq.core.health.ConnectionStatus;
import io.qubiq.testkit.mqtt.PublishPolicy;
import io.qubiq.testkit.mqtt.TestMqttBroker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The sink while its real broker (embedded HiveMQ CE, one for the class) is stopped and started
 * again on the same port; each test leaves it running. Subscribers have persistent sessions, which
 * HiveMQ keeps across the restart, so they see what was published on both sides of it.
 */
class MqttSinkOutageTest {

    private static final Duration WAIT = Duration.ofSeconds(60);
    static TestMqttBroker broker;

    @BeforeAll
    static void startBroker() {
        // held back long enough that a publish to delayed/# is still unanswered when the broker stops
        broker = TestMqttBroker.onFreePort().withPublishPolicy(Duration.ofSeconds(10)).start();
    }

    @AfterAll
    static void closeBroker() {
        broker.close();
    }

    @AfterEach
    void brokerRunsAgain() {
        broker.start();
    }

    private static MqttSinkConfig config() {
        return MqttSinkConfig.of(broker.host(), broker.port()).withTimeouts(3000, 60_000);
    }

    private static List<String> payloads(List<TopicSubscriber.Received> received) {
        return received.stream().map(TopicSubscriber.Received::payload).toList();
    }

    @Test
    void aStoppedBrokerIsTransientAndProbedDownAndTheNextWriteAfterARestartReconnects() throws Exception {
        String topic = "outage/restart";
        try (TopicSubscriber subscriber = TopicSubscriber.persistent(broker.host(), broker.port(), topic);
             MqttSink sink = new MqttSink("outage", config())) {
            sink.write(List.of(MqttMessage.of(topic, "before", 1, false)));

            broker.stop();
            assertThatThrownBy(() -> sink.write(List.of(MqttMessage.of(topic, "during", 1, false))))
                    .isInstanceOf(TransientException.class)
                    .hasMessageContaining("cannot connect to MQTT broker mqtt://127.0.0.1:" + broker.port());
            ConnectionStatus down = sink.probe();
            assertThat(down.state()).isEqualTo(ConnectionState.DOWN);
            assertThat(down.lastError()).hasValueSatisfying(error -> assertThat(error).contains("cannot connect"));

            broker.start();
            assertThat(sink.probe().state()).isEqualTo(ConnectionState.UP);
            sink.write(List.of(MqttMessage.of(topic, "during", 1, false), MqttMessage.of(topic, "after", 2, false)));

            assertThat(sink.connections()).isEqualTo(2);
            // QoS 1 is at least once: the subscriber's acknowledgement of "before" may not have reached the
            // broker when it stopped, so the broker may deliver it again; every message arrives, in order
            await().atMost(WAIT).untilAsserted(() ->
                    assertThat(payloads(subscriber.received()).stream().distinct().toList())
                            .containsExactly("before", "during", "after"));
        }
    }

    @Test
    void aConnectionLostMidBatchIsTransientAndTheReplayPublishesOnlyWhatTheBrokerHadNotAcknowledged() throws Exception {
        String topic = "outage/midbatch";
        String held = PublishPolicy.DELAYED + topic;
        List<MqttMessage> batch = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            batch.add(MqttMessage.of(topic, "acknowledged " + i, 1, false));
        }
        batch.add(MqttMessage.of(held, "held back", 1, false));
        for (int i = 0; i < 4; i++) {
            batch.add(MqttMessage.of(topic, "behind " + i, 1, false));
        }
        try (TopicSubscriber subscriber = TopicSubscriber.persistent(broker.host(), broker.port(), "#");
             MqttSink sink = new MqttSink("outage", config())) {
            CompletableFuture<Throwable> write = CompletableFuture.supplyAsync(() -> catchThrowable(() -> sink.write(batch)));
            await().atMost(WAIT).until(() -> payloads(subscriber.received()).contains("acknowledged 4"));

            broker.stop();
            Throwable failure = write.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            assertThat(failure).isInstanceOf(TransientException.class)
                    .hasMessageContaining("were not acknowledged");

            broker.start();
            sink.write(batch);

            await().atMost(WAIT).untilAsserted(() -> assertThat(payloads(subscriber.received()))
                    .containsExactly("acknowledged 0", "acknowledged 1", "acknowledged 2", "acknowledged 3",
                            "acknowledged 4", "held back", "behind 0", "behind 1", "behind 2", "behind 3"));
        }
    }
}
