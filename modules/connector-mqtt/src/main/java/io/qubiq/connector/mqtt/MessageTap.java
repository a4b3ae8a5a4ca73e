package io.qubiq.connector.mqtt;

import java.util.function.BiConsumer;

/**
 * A listener for the raw messages of one topic filter, beside the filter-to-tag routes: how a
 * pipeline triggered by MQTT messages hears its device connection. Its filter is subscribed with
 * the connection's own subscriptions (and resubscribed after a reconnect the same way). Immutable.
 */
final class MessageTap {

    private final TopicTemplate filter;
    private final String topicFilter;
    private final BiConsumer<String, byte[]> listener;
    private volatile boolean open = true;

    MessageTap(String topicFilter, BiConsumer<String, byte[]> listener) {
        this.topicFilter = topicFilter;
        this.filter = new TopicTemplate(topicFilter, topicFilter);
        this.listener = listener;
    }

    String topicFilter() {
        return topicFilter;
    }

    /** Delivers the message when it matches and the tap is open; whether it matched. */
    boolean offer(String topic, byte[] payload) {
        if (!open || filter.match(topic).isEmpty()) {
            return false;
        }
        listener.accept(topic, payload);
        return true;
    }

    void close() {
        open = false;
    }
}
