package io.qubiq.core.connector;

import io.qubiq.core.health.ConnectionState;
import io.qubiq.core.health.ConnectionStatus;
import io.qubiq.core.tag.TagPath;
import io.qubiq.core.tag.TagPublisher;
import java.util.concurrent.CompletableFuture;

/**
 * A device connection (an OPC UA server, an MQTT broker) that turns device data into tag values.
 *
 * <p>{@link #start} returns at once: the connector connects, reconnects and resubscribes on its
 * own threads for as long as it runs, publishing values (and, when the connection drops, bad
 * qualities for its tags) to the publisher. Writes go straight to the device and are never
 * buffered: the returned future completes with the device's verdict or fails visibly.
 */
public interface DeviceConnector extends AutoCloseable {

    /** The connection id from configuration, such as {@code plc1}. */
    String id();

    void start(TagPublisher publisher);

    ConnectionStatus status();

    /**
     * Whether the connection is collecting now: connected, and the subscriptions its protocol has
     * exist (OPC UA: the server answered the subscription's create request; MQTT: the broker granted
     * the topic filters). The gateway is not ready until every connection has been collecting or has
     * failed its first attempt. The default, for a protocol without subscriptions: connected (UP).
     * Safe from any thread.
     */
    default boolean subscribed() {
        return status().state() == ConnectionState.UP;
    }

    /** Writes one value to the device; fails with a typed exception if the tag is not writable. */
    CompletableFuture<TagWriteResult> write(TagPath tag, Object value);

    /**
     * Running counters for the console and metrics, by name with its unit ({@code values_received},
     * {@code errors}, {@code reconnects}, {@code malformed_payloads}); the same names across connector types.
     */
    default java.util.Map<String, Long> counters() {
        return java.util.Map.of();
    }

    /**
     * Conditions of a connection that loses or will lose data, or is unsafe as configured, for the console:
     * one line each, starting with a name and a colon ({@code itemsMissingChanges: 3 items miss changes: ...},
     * {@code credentialsInClear: ...}). Empty normally. Safe from any thread.
     */
    default java.util.List<String> warnings() {
        return java.util.List.of();
    }

    /** Disconnects and releases every resource; bounded in time. */
    @Override
    void close();
}
