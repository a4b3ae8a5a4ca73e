package io.qubiq.sink.mqtt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import io.qubiq.core.error.ConfigurationException;
import io.qubiq.core.error.PermanentException;
import io.qubiq.core.error.TransientException;
import io.qubiq.core.error.UnknownOutcomeException;
import io.qubiq.core.health.ConnectionState;
import io.qubiq.core.health.ConnectionStatus;
import io.qubiq.mqtt.MqttProtocol;
import io.qubiq.testkit.mqtt.PublishPolicy;
import io.qubiq.testkit.mqtt.TestMqttBroker;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * The sink against one embedded HiveMQ CE for the class, with a TLS listener, a maximum packet size
 * of {@value #MAX_PACKET} bytes and the {@link PublishPolicy} extension (refuses {@code
 * forbidden/#}, holds {@code delayed/#} back for {@value #DELAY_MS} ms). Each test uses topics of
 * its own.
 */
class HiveMqSinkTest {

    static final int MAX_PACKET = 1024;
    static final long DELAY_MS = 1500;
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final AtomicInteger TOPICS = new AtomicInteger();

    static TestMqttBroker broker;
    private String topic;

    @BeforeAll
    static void startBroker() {
        broker = TestMqttBroker.onFreePortWithTls().withMaxPacketBytes(MAX_PACKET)
                .withPublishPolicy(Duration.ofMillis(DELAY_MS)).start();
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    @BeforeEach
    void topicOfThisTest(TestInfo test) {
        topic = "hivemq/" + test.getTestMethod().orElseThrow().getName() + "/" + TOPICS.incrementAndGet();
    }

    private static MqttSinkConfig config() {
        return MqttSinkConfig.of(broker.host(), broker.port());
    }

    private static List<String> payloads(List<TopicSubscriber.Received> received) {
        return received.stream().map(TopicSubscriber.Received::payload).toList();
    }

    @Test
    void aPublishTheBrokerRefusesIsPermanentForThatMessageWithItsReasonCodeAndTheOthersArePublished() throws Exception {
        try (TopicSubscriber subscriber = TopicSubscriber.on(broker.host(), broker.port(), topic);
             MqttSink sink = new MqttSink("refusals", config())) {
            List<MqttMessage> batch = List.of(
                    MqttMessage.of(topic, "a", 1, false),
                    MqttMessage.of(PublishPolicy.FORBIDDEN + topic, "refused at QoS 1", 1, false),
                    MqttMessage.of(topic, "b", 2, false),
                    MqttMessage.of(PublishPolicy.FORBIDDEN + topic, "refused at QoS 2", 2, false),
                    MqttMessage.of(topic, "c", 1, false));

            Throwable thrown = catchThrowable(() -> sink.write(batch));

            assertThat(thrown).isInstanceOf(PermanentException.class);
            PermanentException permanent = (PermanentException) thrown;
            assertThat(permanent.othersWritten()).isTrue();
            assertThat(permanent.rejected()).extracting(PermanentException.RejectedItem::index).containsExactly(1, 3);
            assertThat(permanent.rejected().get(0).reason()).contains("PUBACK", "0x87", "NOT_AUTHORIZED",
                    PublishPolicy.REASON);
            assertThat(permanent.rejected().get(1).reason()).contains("PUBREC", "0x87", "NOT_AUTHORIZED");
            assertThat(payloads(subscriber.receivedOn(topic))).containsExactly("a", "b", "c");
            assertThat(sink.connections()).as("a refusal does not cost the connection").isEqualTo(1);
        }
    }

    @Test
    void aMessageLargerThanTheBrokersMaximumPacketSizeIsRefusedBeforeSendingAndTheConnectionSurvives() throws Exception {
        try (TopicSubscriber subscriber = TopicSubscriber.on(broker.host(), broker.port(), topic);
             MqttSink sink = new MqttSink("sizes", config())) {
            MqttMessage largest = payloadOfPacketSize(topic, 1, MAX_PACKET, true);
            MqttMessage oneTooMany = payloadOfPacketSize(topic, 1, MAX_PACKET + 1, true);
            MqttMessage largestQos0 = payloadOfPacketSize(topic, 0, MAX_PACKET, true);
            MqttMessage tooLargeQos0 = payloadOfPacketSize(topic, 0, MAX_PACKET + 1, true);
            List<MqttMessage> batch = List.of(MqttMessage.of(topic, "first", 1, false), oneTooMany, largest,
                    tooLargeQos0, largestQos0, MqttMessage.of(topic, "last", 1, false));

            Throwable thrown = catchThrowable(() -> sink.write(batch));

            assertThat(thrown).isInstanceOf(PermanentException.class);
            PermanentException permanent = (PermanentException) thrown;
            assertThat(permanent.othersWritten()).isTrue();
            assertThat(permanent.rejected()).extracting(PermanentException.RejectedItem::index).containsExactly(1, 3);
            assertThat(permanent.rejected().get(0).reason()).contains((MAX_PACKET + 1) + " bytes",
                    "maximum packet size is " + MAX_PACKET, "announced in CONNACK");
            // MQTT keeps order per QoS level only: the QoS 0 message may arrive anywhere among the others
            assertThat(payloads(subscriber.receivedOn(topic))).containsExactlyInAnyOrder("first", text(largest),
                    text(largestQos0), "last");
            assertThat(sink.connections()).as("an oversized message never reaches the broker").isEqualTo(1);
            sink.write(List.of(MqttMessage.of(topic, "after", 1, false)));
            assertThat(payloads(subscriber.receivedOn(topic))).endsWith("after");
            assertThat(sink.connections()).isEqualTo(1);
        }
    }

    private static String text(MqttMessage message) {
        return new String(message.payload(), StandardCharsets.UTF_8);
    }

    /** A text message whose MQTT 5 (or 3.1.1) PUBLISH packet is exactly {@code packetBytes} long. */
    static MqttMessage payloadOfPacketSize(String topic, int qos, int packetBytes, boolean mqtt5) {
        int payload = packetBytes;
        while (PacketSize.of(MqttMessage.of(topic, "x".repeat(payload), qos, false), mqtt5) > packetBytes) {
            payload--;
        }
        char[] text = new char[payload];
        Arrays.fill(text, 'x');
        MqttMessage message = MqttMessage.of(topic, new String(text), qos, false);
        assertThat(PacketSize.of(message, mqtt5)).isEqualTo(packetBytes);
        return message;
    }

    @Test
    void qos0And2ArriveEndToEndAndARetainedMessageIsKeptForLaterSubscribers() throws Exception {
        try (TopicSubscriber subscriber = TopicSubscriber.on(broker.host(), broker.port(), topic);
             MqttSink sink = new MqttSink("qos", config())) {
            sink.write(List.of(
                    MqttMessage.of(topic, "qos0", 0, false),
                    MqttMessage.of(topic, "qos2", 2, false),
                    MqttMessage.of(topic, "qos1", 1, false),
                    MqttMessage.of(topic, "qos2 retained", 2, true)));

            // each arrives with the QoS it was published with (the subscription allows 2); order is kept per QoS only
            assertThat(subscriber.receivedOn(topic)).containsExactlyInAnyOrder(
                    new TopicSubscriber.Received(topic, "qos0", 0, false),
                    new TopicSubscriber.Received(topic, "qos2", 2, false),
                    new TopicSubscriber.Received(topic, "qos1", 1, false),
                    new TopicSubscriber.Received(topic, "qos2 retained", 2, false));
        }
        try (TopicSubscriber late = TopicSubscriber.on(broker.host(), broker.port(), topic)) {
            await().atMost(WAIT).until(() -> !late.received().isEmpty());
            assertThat(late.received().get(0)).isEqualTo(new TopicSubscriber.Received(topic, "qos2 retained", 2, true));
        }
    }

    @Test
    void aPublishStillUnacknowledgedAfterPublishTimeoutIsUnknownOutcomeAndMayStillArrive() throws Exception {
        String delayed = PublishPolicy.DELAYED + topic;
        try (TopicSubscriber subscriber = TopicSubscriber.on(broker.host(), broker.port(), delayed);
             MqttSink sink = new MqttSink("slow", config().withTimeouts(5000, 300))) {
            assertThatThrownBy(() -> sink.write(List.of(MqttMessage.of(delayed, "late", 1, false))))
                    .isInstanceOf(UnknownOutcomeException.class)
                    .hasMessageContaining("1 of 1 messages")
                    .hasMessageContaining("may have them");

            // The broker had it: exactly what "unknown outcome" means. The next write starts a new connection.
            await().atMost(WAIT).until(() -> subscriber.received().stream().anyMatch(r -> r.payload().equals("late")));
            sink.write(List.of(MqttMessage.of(topic, "next", 1, false)));
            assertThat(sink.connections()).isEqualTo(2);
        }
    }

    @Test
    void probingDuringAWriteReportsUpAndLeavesTheWriteIntact() throws Exception {
        String delayed = PublishPolicy.DELAYED + topic;
        try (TopicSubscriber subscriber = TopicSubscriber.on(broker.host(), broker.port(), topic);
             MqttSink sink = new MqttSink("probed", config())) {
            // one message held back by the broker for DELAY_MS, the others behind it
            List<MqttMessage> batch = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                batch.add(MqttMessage.of(i == 5 ? delayed : topic, "m" + i, 1, false));
            }
            CompletableFuture<Void> write = CompletableFuture.runAsync(() -> {
                try {
                    sink.write(batch);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            List<ConnectionStatus> probes = new ArrayList<>();
            while (!write.isDone()) {
                probes.add(sink.probe());
            }
            write.get(WAIT.toSeconds(), TimeUnit.SECONDS);

            assertThat(probes).isNotEmpty().allSatisfy(status -> assertThat(status.state()).isEqualTo(ConnectionState.UP));
            assertThat(probes.size()).as("probes while the write waited for the broker").isGreaterThan(1);
            assertThat(payloads(subscriber.receivedOn(topic))).hasSize(19).startsWith("m0").endsWith("m19");
            assertThat(sink.connections()).isEqualTo(1);
        }
    }

    @Test
    void overTlsWithoutVerificationMessagesArriveAndAnUntrustedCertificateIsAConfigurationError() throws Exception {
        try (TopicSubscriber subscriber = TopicSubscriber.on(broker.host(), broker.port(), topic);
             MqttSink trusting = new MqttSink("tls", config().withTls(broker.tlsPort(), false));
             MqttSink verifying = new MqttSink("tls-verified", config().withTls(broker.tlsPort(), true))) {
            trusting.write(List.of(MqttMessage.of(topic, "over tls", 1, false)));
            assertThat(payloads(subscriber.receivedOn(topic))).containsExactly("over tls");

            assertThatThrownBy(() -> verifying.write(List.of(MqttMessage.of(topic, "refused", 1, false))))
                    .isInstanceOf(ConfigurationException.class)
                    .satisfies(e -> assertThat(((ConfigurationException) e).key()).isEqualTo("tls"))
                    .hasMessageContaining("TLS handshake");
            ConnectionStatus probe = verifying.probe();
            assertThat(probe.state()).isEqualTo(ConnectionState.DOWN);
            assertThat(probe.lastError()).hasValueSatisfying(error -> assertThat(error).contains("TLS"));
        }
    }

    @Test
    void overMqtt311HiveMqClosesTheConnectionOnARefusedPublishWhichLooksLikeAnOutage() throws Exception {
        try (TopicSubscriber subscriber = TopicSubscriber.on(broker.host(), broker.port(), topic);
             MqttSink sink = new MqttSink("refusals311", config().withProtocol(MqttProtocol.MQTT_3_1_1))) {
            // MQTT 3.1.1 has no reason codes: HiveMQ drops the connection instead of acknowledging
            assertThatThrownBy(() -> sink.write(List.of(MqttMessage.of(topic, "a", 1, false),
                    MqttMessage.of(PublishPolicy.FORBIDDEN + topic, "refused", 1, false),
                    MqttMessage.of(topic, "b", 1, false))))
                    .isInstanceOf(TransientException.class)
                    .hasMessageContaining("Server closed connection");
            // ...after delivering what came before and after it, unacknowledged: a replay duplicates them
            assertThat(payloads(subscriber.receivedOn(topic))).contains("a");
        }
    }
}
