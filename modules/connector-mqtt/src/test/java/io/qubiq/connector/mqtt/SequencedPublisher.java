package io.qubiq.connector.mqtt;

import com.hivemq.client.mqtt.MqttClient;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.lifecycle.MqttClientAutoReconnect;
import com.hivemq.client.mqtt.mqtt5.Mqtt5AsyncClient;
import java.nio.charset.StandardCharsets;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A device that publishes QoS 1 messages at a steady rate over {@code topics} topics ({@code
 * <prefix>/t000}, ...), each payload the topic's next sequence number from 0. Its own session is
 * persistent and it reconnects on its own, so it keeps publishing through a broker restart (the
 * client queues and republishes). Remembers which sequence numbers the broker acknowledged: those
 * are the messages the broker owns and must deliver. Thread-safe.
 */
final class SequencedPublisher implements AutoCloseable {

    private static final long TICK_MS = 10;

    private final Mqtt5AsyncClient client;
    private final String prefix;
    private final int topics;
    private final long[] next;
    private final Map<String, BitSet> acknowledged = new HashMap<>();
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "sequenced-publisher");
        t.setDaemon(true);
        return t;
    });
    private int cursor;
    private double owed;

    SequencedPublisher(String host, int port, String prefix, int topics) {
        this.prefix = prefix;
        this.topics = topics;
        this.next = new long[topics];
        this.client = MqttClient.builder().useMqttVersion5().identifier("device-" + UUID.randomUUID())
                .serverHost(host).serverPort(port)
                .automaticReconnect(MqttClientAutoReconnect.builder()
                        .initialDelay(100, TimeUnit.MILLISECONDS).maxDelay(500, TimeUnit.MILLISECONDS).build())
                .addDisconnectedListener(context -> context.getReconnector().republishIfSessionExpired(true))
                .buildAsync();
        client.connectWith().cleanStart(false).sessionExpiryInterval(3600).send().join();
    }

    static String topic(String prefix, int index) {
        return prefix + "/t" + String.format("%03d", index);
    }

    /** Publishes {@code perSecond} messages a second, spread evenly, until {@link #stop()}. */
    void start(int perSecond) {
        ticker.scheduleAtFixedRate(() -> tick(perSecond), 0, TICK_MS, TimeUnit.MILLISECONDS);
    }

    private void tick(int perSecond) {
        owed += perSecond * TICK_MS / 1000.0;
        while (owed >= 1) {
            owed--;
            int index = cursor;
            cursor = (cursor + 1) % topics;
            long seq = next[index]++;
            String topic = topic(prefix, index);
            sent.incrementAndGet();
            client.publishWith().topic(topic).qos(MqttQos.AT_LEAST_ONCE)
                    .payload(Long.toString(seq).getBytes(StandardCharsets.US_ASCII)).send()
                    .whenComplete((result, error) -> {
                        if (error != null || result.getError().isPresent()) {
                            failed.incrementAndGet();
                        } else {
                            synchronized (acknowledged) {
                                acknowledged.computeIfAbsent(topic, t -> new BitSet()).set(Math.toIntExact(seq));
                            }
                        }
                    });
        }
    }

    /** Stops publishing; publishes already handed to the client still complete. */
    void stop() throws InterruptedException {
        ticker.shutdown();
        ticker.awaitTermination(5, TimeUnit.SECONDS);
    }

    long sent() {
        return sent.get();
    }

    long failed() {
        return failed.get();
    }

    /** How many publishes the broker acknowledged so far. */
    long acknowledgedCount() {
        synchronized (acknowledged) {
            return acknowledged.values().stream().mapToLong(BitSet::cardinality).sum();
        }
    }

    /** Per tag path (the same as the topic here), the acknowledged sequence numbers. */
    Map<String, BitSet> acknowledged() {
        synchronized (acknowledged) {
            Map<String, BitSet> copy = new HashMap<>();
            acknowledged.forEach((topic, bits) -> copy.put(topic, (BitSet) bits.clone()));
            return copy;
        }
    }

    @Override
    public void close() throws InterruptedException {
        stop();
        client.disconnect().exceptionally(e -> null).join();
    }
}
