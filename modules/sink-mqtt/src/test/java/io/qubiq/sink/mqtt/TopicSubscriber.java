package io.qubiq.sink.mqtt;

import static org.awaitility.Awaitility.await;

import com.hivemq.client.mqtt.MqttClient;
import com.hivemq.client.mqtt.MqttGlobalPublishFilter;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.lifecycle.MqttClientAutoReconnect;
import com.hivemq.client.mqtt.mqtt5.Mqtt5AsyncClient;
import com.hivemq.client.mqtt.mqtt5.lifecycle.Mqtt5ClientConnectedContext;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What a subscriber on the test broker receives: an MQTT 5 client subscribed to one topic filter,
 * recording every message in arrival order. {@link #receivedOn} uses a marker so that it never has
 * to guess how long to wait: it publishes a marker on the topic and waits for it; a broker delivers
 * a subscriber's messages in the order it accepted them, so every message acknowledged before the
 * marker was sent arrives before it.
 *
 * <p>With {@link #persistent} the subscriber keeps a session across broker restarts (HiveMQ keeps it
 * in file persistence) and reconnects by itself: messages published while it is away are queued for
 * it. When a CONNACK comes without the session the client drops its publish listener and the
 * subscription is gone: both are made again (a generation number silences an old listener).
 */
final class TopicSubscriber implements AutoCloseable {

    /** One received message. */
    record Received(String topic, String payload, int qos, boolean retain) {
    }

    private static final Duration WAIT = Duration.ofSeconds(30);

    private final Mqtt5AsyncClient client;
    private final String filter;
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private final AtomicInteger generation = new AtomicInteger();
    private final AtomicInteger markers = new AtomicInteger();
    private volatile boolean connectedBefore;

    private TopicSubscriber(String host, int port, String filter, boolean persistent) {
        this.filter = filter;
        var builder = MqttClient.builder().useMqttVersion5()
                .identifier("test-subscriber-" + UUID.randomUUID())
                .serverHost(host).serverPort(port);
        if (persistent) {
            builder = builder.automaticReconnect(MqttClientAutoReconnect.builder()
                            .initialDelay(100, TimeUnit.MILLISECONDS).maxDelay(500, TimeUnit.MILLISECONDS).build())
                    .addConnectedListener(context -> onConnected(
                            ((Mqtt5ClientConnectedContext) context).getConnAck().isSessionPresent()));
        }
        client = builder.buildAsync();
        listen();
        client.connectWith().cleanStart(!persistent).sessionExpiryInterval(persistent ? 3600 : 0).send().join();
        subscribe();
        connectedBefore = true;
    }

    /** A clean-session subscriber to {@code filter}, subscribed when this returns. */
    static TopicSubscriber on(String host, int port, String filter) {
        return new TopicSubscriber(host, port, filter, false);
    }

    /** A subscriber with a persistent session that reconnects by itself (for broker restarts). */
    static TopicSubscriber persistent(String host, int port, String filter) {
        return new TopicSubscriber(host, port, filter, true);
    }

    private void onConnected(boolean sessionPresent) {
        if (connectedBefore && !sessionPresent) {
            listen();
            subscribe();
        }
    }

    private void listen() {
        int flow = generation.incrementAndGet();
        client.publishes(MqttGlobalPublishFilter.ALL, publish -> {
            if (generation.get() == flow) {
                received.add(new Received(publish.getTopic().toString(),
                        new String(publish.getPayloadAsBytes(), StandardCharsets.UTF_8), publish.getQos().getCode(),
                        publish.isRetain()));
            }
        });
    }

    private void subscribe() {
        client.subscribeWith().topicFilter(filter).qos(MqttQos.EXACTLY_ONCE).send().join();
    }

    /** Everything received so far, in arrival order (markers included). */
    List<Received> received() {
        return List.copyOf(received);
    }

    /**
     * The messages received on {@code topic} before a marker published now on the same topic arrived:
     * every message the broker acknowledged before this call. Markers are left out.
     */
    List<Received> receivedOn(String topic) {
        String marker = "marker-" + markers.incrementAndGet() + "-" + UUID.randomUUID();
        client.publishWith().topic(topic).qos(MqttQos.AT_LEAST_ONCE).payload(marker.getBytes(StandardCharsets.UTF_8))
                .send().join();
        await().atMost(WAIT).until(() -> received.stream().anyMatch(r -> r.payload().equals(marker)));
        List<Received> before = new ArrayList<>();
        for (Received r : received) {
            if (r.payload().equals(marker)) {
                break;
            }
            if (r.topic().equals(topic) && !r.payload().startsWith("marker-")) {
                before.add(r);
            }
        }
        return before;
    }

    @Override
    public void close() {
        try {
            client.disconnect().get(5, TimeUnit.SECONDS);
        } catch (Exception e) {
            // not connected: nothing to close
        }
    }
}
