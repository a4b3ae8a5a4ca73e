package io.qubiq.benchmarks.targetrun;

import com.hivemq.client.mqtt.MqttClient;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt3.Mqtt3AsyncClient;
import java.nio.charset.StandardCharsets;
import java.util.BitSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The MQTT load: an in-process HiveMQ client (MQTT 3.1.1, clean session) publishing, every {@code
 * periodMicros}, one QoS 1 message on each of {@code topics} topics {@code target/tNNNN}; the payload
 * is the topic's sequence number as plain text (1, 2, 3, ...), which the MQTT connector parses as an
 * int64. For every topic it remembers which sequence numbers the broker acknowledged (PUBACK): those
 * are the messages the broker took custody of, which the gateway must store. A message whose publish
 * failed (the broker was down) is counted as unacknowledged; it may or may not reach the gateway.
 *
 * <p>While the broker is unreachable no round is published and a reconnect is tried every 500 ms (no
 * automatic reconnect of the client, so no publish is silently re-sent). Threading: rounds run on one
 * scheduler thread; acknowledgements arrive on the client's threads and update the per-topic sets
 * under their lock; the counters are atomic.
 */
final class SequencePublisher implements AutoCloseable {

    private final Mqtt3AsyncClient client;
    private final int topics;
    private final long[] sent;
    private final BitSet[] acked;
    private final AtomicLong published = new AtomicLong();
    private final AtomicLong acknowledged = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicLong reconnects = new AtomicLong();
    private final ScheduledExecutorService rounds = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "target-publisher");
        thread.setDaemon(true);
        return thread;
    });
    private volatile CompletableFuture<?> connecting = CompletableFuture.completedFuture(null);
    private long lastConnectAttemptNanos;

    SequencePublisher(int port, int topics) {
        this.topics = topics;
        this.sent = new long[topics];
        this.acked = new BitSet[topics];
        for (int i = 0; i < topics; i++) {
            acked[i] = new BitSet();
        }
        this.client = MqttClient.builder().useMqttVersion3().identifier("target-run-publisher")
                .serverHost("127.0.0.1").serverPort(port).buildAsync();
    }

    static String topic(int i) {
        return GatewayConfigWriter.TOPIC_PREFIX + String.format("t%04d", i);
    }

    void start(long periodMicros) throws Exception {
        client.connectWith().cleanSession(true).keepAlive(30).send().get(10, TimeUnit.SECONDS);
        rounds.scheduleAtFixedRate(this::round, 0, periodMicros, TimeUnit.MICROSECONDS);
    }

    private void round() {
        if (!client.getState().isConnected()) {
            reconnectWhenDue();
            return;
        }
        for (int i = 0; i < topics; i++) {
            int topic = i;
            long sequence = ++sent[i];
            published.incrementAndGet();
            client.publishWith().topic(topic(i)).qos(MqttQos.AT_LEAST_ONCE)
                    .payload(Long.toString(sequence).getBytes(StandardCharsets.US_ASCII)).send()
                    .whenComplete((ack, error) -> {
                        if (error == null) {
                            synchronized (acked[topic]) {
                                acked[topic].set((int) sequence);
                            }
                            acknowledged.incrementAndGet();
                        } else {
                            failed.incrementAndGet();
                        }
                    });
        }
    }

    private void reconnectWhenDue() {
        long now = System.nanoTime();
        if (!connecting.isDone() || now - lastConnectAttemptNanos < TimeUnit.MILLISECONDS.toNanos(500)) {
            return;
        }
        lastConnectAttemptNanos = now;
        reconnects.incrementAndGet();
        connecting = client.connectWith().cleanSession(true).keepAlive(30).send();
    }

    /** Stops publishing and waits up to {@code waitMs} for the outstanding acknowledgements. */
    void stop(long waitMs) throws InterruptedException {
        rounds.shutdown();
        rounds.awaitTermination(10, TimeUnit.SECONDS);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMs);
        while (acknowledged.get() + failed.get() < published.get() && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
    }

    int topics() {
        return topics;
    }

    /** The sequence numbers the broker acknowledged on topic {@code i} (a copy). */
    BitSet acknowledged(int i) {
        synchronized (acked[i]) {
            return (BitSet) acked[i].clone();
        }
    }

    long published() {
        return published.get();
    }

    long acknowledged() {
        return acknowledged.get();
    }

    long failed() {
        return failed.get();
    }

    long reconnects() {
        return reconnects.get();
    }

    @Override
    public void close() {
        rounds.shutdownNow();
        if (client.getState().isConnected()) {
            try {
                client.disconnect().get(5, TimeUnit.SECONDS);
            } catch (Exception e) {
                // best effort at the end of the run
            }
        }
    }
}
