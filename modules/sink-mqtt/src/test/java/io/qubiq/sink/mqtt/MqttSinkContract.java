package io.qubiq.sink.mqtt;

import io.qubiq.core.sink.ItemCodec;
import io.qubiq.core.sink.Sink;
import io.qubiq.testkit.sink.SinkContract;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInfo;

/**
 * The sink contract for the MQTT sink against one real broker: each test publishes QoS 1 messages
 * {@code "message <n>"} to a topic of its own, and {@link #delivered()} is what a subscriber on that
 * topic received. Subclasses start the broker once for the class and say how a message the broker
 * refuses looks on it.
 */
abstract class MqttSinkContract extends SinkContract<MqttMessage> {

    private static final AtomicInteger TOPICS = new AtomicInteger();

    protected String topic;
    private TopicSubscriber subscriber;

    /** The sink configuration for the running broker. */
    protected abstract MqttSinkConfig config();

    @BeforeEach
    void subscribeToThisTestsTopic(TestInfo test) {
        topic = "qubiq/" + getClass().getSimpleName() + "/" + test.getTestMethod().orElseThrow().getName() + "/"
                + TOPICS.incrementAndGet();
        subscriber = TopicSubscriber.on(config().endpoint().host(), config().endpoint().port(), topic);
    }

    @AfterEach
    void closeSubscriber() {
        subscriber.close();
    }

    @Override
    protected Sink<MqttMessage> newSink() throws Exception {
        return new MqttSink("contract", config());
    }

    @Override
    protected Sink<MqttMessage> newSinkToUnreachableDestination() throws Exception {
        return new MqttSink("contract", MqttSinkConfig.of("127.0.0.1", closedPort())
                .withProtocol(config().protocol()).withTimeouts(2000, 2000));
    }

    @Override
    protected MqttMessage item(int n) {
        return MqttMessage.of(topic, "message " + n, 1, false);
    }

    @Override
    protected List<Integer> delivered() {
        return subscriber.receivedOn(topic).stream()
                .map(received -> Integer.parseInt(received.payload().substring("message ".length())))
                .toList();
    }

    @Override
    protected ItemCodec<MqttMessage> codec() {
        return new MqttMessageCodec();
    }

    static int closedPort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
