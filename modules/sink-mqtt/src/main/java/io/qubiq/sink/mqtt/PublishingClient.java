package io.qubiq.sink.mqtt;

import io.qubiq.core.error.GatewayException;
import io.qubiq.core.error.TransientException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One HiveMQ client as the sink uses it, for either protocol version: connect once (clean session,
 * no automatic reconnect), publish a message and learn its {@link PublishOutcome}, disconnect.
 *
 * <p>The client completes a QoS 2 publish without error also when the connection closes after the
 * broker's PUBREC and before its PUBCOMP. Such a message is not flushed: a broker that forwards
 * QoS 2 messages only on PUBREL (mosquitto does) drops it with the clean session. The client calls
 * its disconnected listeners before it ends the session, so the listener's counter tells the two
 * apart: a QoS 2 completion seen after the counter moved is {@link PublishOutcome.ConnectionLost}.
 *
 * <p>Thread-safe as the HiveMQ client is; outcome callbacks run on the client's event loop.
 */
abstract class PublishingClient {

    /** Receives the outcome of one published message; called once, on any thread. */
    @FunctionalInterface
    interface OutcomeListener {
        void settled(int index, PublishOutcome outcome);
    }

    /** What a CONNACK told: the largest packet the broker takes, and where that figure came from. */
    record Connected(long maxPacketBytes, String limitSource) {
    }

    /** Slack for the client's own connect timeouts to fire before the sink stops waiting. */
    private static final long CONNECT_GRACE_MS = 2_000;

    final String broker;
    final AtomicInteger disconnects;

    PublishingClient(String broker, AtomicInteger disconnects) {
        this.broker = broker;
        this.disconnects = disconnects;
    }

    /** Sends CONNECT; the future completes with what the CONNACK allows, or fails as the client reports. */
    abstract CompletableFuture<Connected> sendConnect();

    /** Turns a failed CONNECT into its failure class (a CONNACK refusal, a transport or TLS failure). */
    abstract GatewayException connectFailure(Throwable error);

    /** Hands one message to the client; the future completes when the client considers it acknowledged. */
    abstract CompletableFuture<?> send(MqttMessage message);

    abstract boolean connected();

    abstract CompletableFuture<Void> sendDisconnect();

    /**
     * Connects once, waiting at most {@code timeout} (the client's own socket and CONNACK timeouts are
     * set to the same value).
     *
     * @throws GatewayException transient when the broker is unreachable or silent, configuration when
     *     it refuses the credentials, client id, protocol or TLS settings
     */
    Connected connect(Duration timeout) throws GatewayException {
        CompletableFuture<Connected> connack;
        try {
            connack = sendConnect();
        } catch (RuntimeException e) {
            throw connectFailure(e);
        }
        try {
            return connack.get(timeout.toMillis() + CONNECT_GRACE_MS, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw connectFailure(e.getCause());
        } catch (TimeoutException e) {
            disconnectQuietly();
            throw new TransientException("no CONNACK from MQTT broker " + broker + " within " + timeout.toMillis() + " ms", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            disconnectQuietly();
            throw new TransientException("interrupted while connecting to MQTT broker " + broker, e);
        }
    }

    /** Publishes {@code message}; {@code listener} learns its outcome exactly once, never by an exception. */
    void publish(MqttMessage message, int index, OutcomeListener listener) {
        int generation = disconnects.get();
        CompletableFuture<?> acknowledged;
        try {
            acknowledged = send(message);
        } catch (IllegalArgumentException e) {
            // the client's builder refused the message: nothing was sent
            listener.settled(index, new PublishOutcome.RejectedByClient("the MQTT client refuses it: " + e.getMessage()));
            return;
        } catch (RuntimeException e) {
            listener.settled(index, FailureClassifier.outcomeOf(e));
            return;
        }
        acknowledged.whenComplete((result, error) -> {
            if (error != null) {
                listener.settled(index, FailureClassifier.outcomeOf(error));
            } else if (message.qos() == 2 && disconnects.get() != generation) {
                listener.settled(index, new PublishOutcome.ConnectionLost(
                        "the connection closed after the broker's PUBREC and before its PUBCOMP"));
            } else {
                listener.settled(index, PublishOutcome.ACKNOWLEDGED);
            }
        });
    }

    /** Disconnects (a DISCONNECT when connected), waiting at most a second; never throws. */
    void disconnectQuietly() {
        try {
            sendDisconnect().get(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            // not connected, or the connection is gone already: nothing to close
        }
    }
}
