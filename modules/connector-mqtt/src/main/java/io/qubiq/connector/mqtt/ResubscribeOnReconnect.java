package io.qubiq.connector.mqtt;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the broker's subscriptions (actual state) in line with the configured ones (desired
 * state) across reconnects. On every CONNACK it decides: subscribe when no subscription of this
 * connector has been granted yet (the first connection, even to a persistent session, so changed
 * configuration takes effect), or when the broker answered without a session (clean session, or
 * the broker lost or expired it, e.g. after a restart). A session that is present still holds the
 * subscriptions, and its queued messages arrive without a new SUBSCRIBE.
 *
 * <p>Owned by the connector thread: {@link #onConnected} and the completion handling run there.
 */
final class ResubscribeOnReconnect {

    private static final Logger LOG = LoggerFactory.getLogger(ResubscribeOnReconnect.class);

    /** What a subscribe round did, for the connector's status and counters. */
    record Outcome(boolean resubscribe, List<String> refusals, Optional<Throwable> failure) {
    }

    private final String connectionId;
    private final List<BrokerClient.Filter> filters;
    /** Written by the connector thread, read by {@link #granted()} from any thread. */
    private volatile boolean granted;

    ResubscribeOnReconnect(String connectionId, List<MqttSubscriptionConfig> subscriptions) {
        this(connectionId, subscriptions, List.of());
    }

    /** With {@code extraFilters} (message taps, at QoS 1) subscribed beside the configured subscriptions. */
    ResubscribeOnReconnect(String connectionId, List<MqttSubscriptionConfig> subscriptions, List<String> extraFilters) {
        this.connectionId = connectionId;
        List<BrokerClient.Filter> all = new ArrayList<>();
        subscriptions.forEach(s -> all.add(new BrokerClient.Filter(s.topic(), s.qos())));
        extraFilters.forEach(topic -> all.add(new BrokerClient.Filter(topic, 1)));
        this.filters = List.copyOf(all);
    }

    /**
     * Subscribes if needed after a CONNACK; {@code done} is called (from the client's thread) when
     * the SUBACK or a failure arrived. Nothing is called when no subscription is needed.
     */
    void onConnected(BrokerClient client, boolean sessionPresent, Consumer<Outcome> done) {
        if (filters.isEmpty() || (sessionPresent && granted)) {
            return;
        }
        boolean resubscribe = granted;
        granted = false;
        LOG.info("MQTT connection {}: {} {} topic filters: {}", connectionId,
                resubscribe ? "the broker has no session; resubscribing to" : "subscribing to", filters.size(),
                filters.stream().map(f -> f.topic() + " (QoS " + f.qos() + ")").toList());
        client.subscribe(filters).whenComplete((results, error) -> {
            if (error != null) {
                done.accept(new Outcome(resubscribe, List.of(), Optional.of(error)));
                return;
            }
            List<String> refusals = new ArrayList<>();
            for (int i = 0; i < results.size() && i < filters.size(); i++) {
                int index = i;
                results.get(i).ifPresent(reason -> refusals.add(filters.get(index).topic() + ": " + reason));
            }
            done.accept(new Outcome(resubscribe, refusals, Optional.empty()));
        });
    }

    /**
     * Whether the broker holds this connector's subscriptions as far as it knows: a SUBACK arrived and
     * no later round reset it, or there is nothing to subscribe. Safe from any thread.
     */
    boolean granted() {
        return granted || filters.isEmpty();
    }

    /** Records that the SUBACK arrived, so a later CONNACK with a session needs no SUBSCRIBE. */
    void markGranted() {
        granted = true;
    }

    /** Forgets the grant, e.g. when the subscribe failed; the next CONNACK subscribes again. */
    void markFailed() {
        granted = false;
    }
}
