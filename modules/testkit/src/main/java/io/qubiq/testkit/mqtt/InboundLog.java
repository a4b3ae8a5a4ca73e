package io.qubiq.testkit.mqtt;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What clients published to the test broker on topics under {@value #PREFIX}, payloads in the order
 * the broker received the PUBLISH packets, every copy included (a client's resend or a store-and-forward
 * replay shows up twice). A witness of what a publisher sent that sits outside the publisher: a
 * subscriber sees the broker's own redeliveries as well, this sees only what came in.
 *
 * <p>Recorded by {@link PublishPolicy}'s interceptor on HiveMQ's threads; read by tests on theirs.
 * Kept across broker stop and start, in memory only.
 */
public final class InboundLog {

    /** The topic prefix whose inbound publishes are recorded. */
    public static final String PREFIX = "witnessed/";

    private final Map<String, List<String>> byTopic = new ConcurrentHashMap<>();

    void received(String topic, byte[] payload) {
        if (topic.startsWith(PREFIX)) {
            List<String> payloads = byTopic.computeIfAbsent(topic, t -> new ArrayList<>());
            synchronized (payloads) {
                payloads.add(new String(payload, StandardCharsets.UTF_8));
            }
        }
    }

    /** The payloads published to {@code topic} so far, in order of arrival, duplicates included. */
    public List<String> on(String topic) {
        List<String> payloads = byTopic.getOrDefault(topic, List.of());
        synchronized (payloads) {
            return List.copyOf(payloads);
        }
    }
}
