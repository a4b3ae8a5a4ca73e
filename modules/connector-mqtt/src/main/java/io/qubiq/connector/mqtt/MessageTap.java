package io.qubiq.connector.mqtt;

import io.qubiq.core.tag.Custody;
import io.qubiq.core.tag.CustodyReceipt;
import java.util.function.BiConsumer;

/**
 * A listener for the raw messages of one topic filter, beside the filter-to-tag routes: how a
 * pipeline triggered by MQTT messages hears its device connection. Its filter is subscribed with
 * the connection's own subscriptions (and resubscribed after a reconnect the same way). A
 * {@linkplain MqttConnector.KeepingListener keeping} listener gets a share of each QoS 1/2 message's
 * custody receipt and holds its acknowledgement until it releases it (released here if it throws).
 * Immutable.
 */
final class MessageTap {

    private final TopicTemplate filter;
    private final String topicFilter;
    private final MqttConnector.KeepingListener listener;
    private volatile boolean open = true;

    MessageTap(String topicFilter, BiConsumer<String, byte[]> listener) {
        this(topicFilter, (MqttConnector.KeepingListener) (topic, payload, custody) -> {
            listener.accept(topic, payload);
            custody.release(); // keeps nothing: acknowledged once it returned
        });
    }

    MessageTap(String topicFilter, MqttConnector.KeepingListener listener) {
        this.topicFilter = topicFilter;
        this.filter = new TopicTemplate(topicFilter, topicFilter);
        this.listener = listener;
    }

    String topicFilter() {
        return topicFilter;
    }

    /** Delivers the message when it matches and the tap is open; whether it matched. */
    boolean offer(String topic, byte[] payload) {
        return offer(topic, payload, null);
    }

    /** As {@link #offer(String, byte[])}, with the message's receipt (null for QoS 0). */
    boolean offer(String topic, byte[] payload, CustodyReceipt receipt) {
        if (!open || filter.match(topic).isEmpty()) {
            return false;
        }
        Custody share = receipt == null ? Custody.NONE : receipt.share();
        try {
            listener.accept(topic, payload, share);
        } catch (RuntimeException | Error e) {
            share.release();
            throw e;
        }
        return true;
    }

    void close() {
        open = false;
    }
}
