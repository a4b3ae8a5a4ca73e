package io.qubiq.connector.mqtt;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The few MQTT operations the connector needs, over either protocol version of the HiveMQ client
 * ({@link Mqtt3BrokerClient}, {@link Mqtt5BrokerClient}). Implementations are built with automatic
 * reconnect and report through {@link Events}; every method is non-blocking and thread-safe.
 */
interface BrokerClient {

    /** What the client reports, on its own (Netty) threads: handlers must not block. */
    interface Events {
        /** A CONNACK arrived; {@code sessionPresent} says whether the broker kept the session. */
        void connected(boolean sessionPresent);

        /** The connection dropped or an attempt failed; the client reconnects on its own. */
        void disconnected(Throwable cause);

        /**
         * A message arrived on {@code topic}, from any subscription of the session, on the client's
         * thread (see {@link InboundFlow}). Returns whether the connector took it. A QoS 1 or 2
         * message comes with its {@code receipt} (null for QoS 0), with which its values are published:
         * it is acknowledged to the broker only when taken and once the receipt completed. A message
         * not taken is redelivered by the broker to the next connection of a persistent session.
         */
        boolean message(String topic, byte[] payload, io.qubiq.core.tag.CustodyReceipt receipt);

        /** The connection's id, for log lines. */
        default String connection() {
            return "?";
        }
    }

    /** One filter to subscribe to. */
    record Filter(String topic, int qos) {
    }

    /** Connects the first time; completes with the CONNACK's session-present flag. */
    CompletableFuture<Boolean> connect();

    /** Subscribes; completes with one entry per filter: empty when granted, else the broker's refusal. */
    CompletableFuture<List<Optional<String>>> subscribe(List<Filter> filters);

    /**
     * Publishes one message; completes when it was sent (QoS 0) or acknowledged (QoS 1, 2), with the
     * broker's refusal reason if it refused it (MQTT 5 only).
     */
    CompletableFuture<Optional<String>> publish(String topic, byte[] payload, int qos, boolean retain);

    /** Whether the client holds an open connection right now. */
    boolean connected();

    /** Disconnects for good (no reconnect). */
    CompletableFuture<Void> disconnect();
}
