package io.qubiq.sink.mqtt;

import io.qubiq.core.error.ConfigurationException;
import io.qubiq.core.error.GatewayException;
import io.qubiq.core.error.TransientException;
import io.qubiq.core.error.UnknownOutcomeException;
import io.qubiq.core.health.ConnectionStatus;
import io.qubiq.core.sink.Sink;
import java.time.Clock;
import java.time.Duration;
import java.util.BitSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes {@link MqttMessage}s to one MQTT broker with the HiveMQ client (MQTT 5 or 3.1.1). Each
 * {@link #write} publishes every message of the batch asynchronously, in order, on one connection,
 * and returns when all are acknowledged: QoS 0 handed to the connection, QoS 1 PUBACK, QoS 2
 * PUBCOMP. That is what "flushed" means for MQTT.
 *
 * <p>The client is made and connected lazily by a write that finds it disconnected: one attempt
 * within {@code connect_timeout_ms}, clean session, no automatic reconnect. The sink never
 * retries or sleeps: a failed attempt is transient and the channel retries the batch later.
 * Failures are classified by {@link FailureClassifier}: a lost connection is transient, a PUBACK or
 * PUBREC failure reason code (MQTT 5) or a message larger than the broker's maximum packet size
 * (checked before sending, so it never costs the connection) is permanent for exactly those
 * messages with the others published, and a missing acknowledgement after {@code
 * publish_timeout_ms} is an unknown outcome (the connection is then dropped, so the next write
 * starts clean).
 *
 * <p>MQTT QoS 1 is at least once: a message whose PUBACK was lost with the connection is published
 * again when the channel replays the batch, so subscribers may see it twice. Messages the broker did
 * acknowledge before the failure are not published again by that replay ({@link
 * AcknowledgedMessages}).
 *
 * <p>Threading: {@link #write} and {@link #close} are called by one thread at a time (the channel's
 * forwarder, or a producer under the channel's latch); {@link #probe} may run concurrently on the
 * monitor's thread and never disturbs a write (it reads the client's state, or connects a client of
 * its own).
 */
public final class MqttSink implements Sink<MqttMessage> {

    private static final Logger log = LoggerFactory.getLogger(MqttSink.class);

    private final String id;
    private final MqttSinkConfig config;
    private final String clientId;
    private final String broker;
    private final boolean mqtt5;
    private final AcknowledgedMessages acknowledged = new AcknowledgedMessages();
    private final ConnectionProbe probe;
    private volatile PublishingClient client;
    private PublishingClient.Connected limits;
    private volatile boolean closed;
    private volatile int connections;

    /**
     * @param id the outbound connection's id (the default client id is derived from it)
     * @throws ConfigurationException when the configuration is inconsistent (the same checks the
     *     configuration binder reports)
     */
    public MqttSink(String id, MqttSinkConfig config, Clock clock) throws ConfigurationException {
        this.id = Objects.requireNonNull(id, "id");
        this.config = Objects.requireNonNull(config, "config");
        List<MqttSinkConfig.Violation> violations = config.violations();
        if (!violations.isEmpty()) {
            MqttSinkConfig.Violation first = violations.get(0);
            throw new ConfigurationException(first.key(), first.message());
        }
        this.clientId = config.effectiveClientId(id);
        this.broker = config.broker().address();
        this.mqtt5 = config.mqtt5();
        this.probe = new ConnectionProbe(config, clientId, this::connected, clock);
    }

    public MqttSink(String id, MqttSinkConfig config) throws ConfigurationException {
        this(id, config, Clock.systemUTC());
    }

    @Override
    public String id() {
        return id;
    }

    /** The MQTT client id this sink connects with ({@code <client id>-probe} for the probe). */
    public String clientId() {
        return clientId;
    }

    @Override
    public void write(List<MqttMessage> batch) throws GatewayException {
        if (closed) {
            throw new IllegalStateException("MQTT sink " + id + " is closed");
        }
        if (batch.isEmpty()) {
            return;
        }
        PublishingClient c = connectedClient();
        // only now: a replay that cannot even connect keeps the memory for the attempt after it
        BitSet alreadyAcknowledged = acknowledged.take(batch);
        BatchAcknowledgements outcomes = new BatchAcknowledgements(batch.size());
        long maxPacketBytes = Math.min(limits.maxPacketBytes(), config.maxPacketBytes().map(Integer::longValue)
                .orElse(PacketSize.PROTOCOL_MAXIMUM));
        for (int i = 0; i < batch.size(); i++) {
            MqttMessage message = batch.get(i);
            if (alreadyAcknowledged.get(i)) {
                outcomes.settled(i, PublishOutcome.ACKNOWLEDGED);
                continue;
            }
            long size = PacketSize.of(message, mqtt5);
            if (size > maxPacketBytes) {
                outcomes.settled(i, new PublishOutcome.TooLarge(size, maxPacketBytes, limitSource(maxPacketBytes)));
                continue;
            }
            c.publish(message, i, outcomes);
        }
        List<PublishOutcome> result;
        try {
            result = outcomes.await(config.publishTimeoutMs());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            acknowledged.remember(batch, BatchAcknowledgements.acknowledged(outcomes.snapshot()));
            discard(c);
            throw new UnknownOutcomeException("interrupted while waiting for MQTT broker " + broker
                    + " to acknowledge " + batch.size() + " messages; the broker may have them", e);
        }
        Optional<GatewayException> failure = FailureClassifier.verdict(result, broker);
        if (failure.isEmpty()) {
            return;
        }
        GatewayException e = failure.get();
        if (e instanceof UnknownOutcomeException || e instanceof TransientException) {
            acknowledged.remember(batch, BatchAcknowledgements.acknowledged(result));
        }
        if (e instanceof UnknownOutcomeException) {
            // an unanswering broker: start the next write on a fresh connection
            discard(c);
        }
        log.debug("MQTT write of {} messages for {} failed ({}): {}", batch.size(), id, e.failureClass(),
                e.getMessage());
        throw e;
    }

    private String limitSource(long maxPacketBytes) {
        if (config.maxPacketBytes().isPresent() && config.maxPacketBytes().get() == maxPacketBytes) {
            return "configured max_packet_bytes";
        }
        return limits.limitSource();
    }

    /** The connected client, connecting it first (one attempt) when it is not. */
    private PublishingClient connectedClient() throws GatewayException {
        PublishingClient c = client;
        if (c == null) {
            c = PublishingClients.create(config, clientId);
            client = c;
        }
        if (c.connected() && limits != null) {
            return c;
        }
        try {
            limits = c.connect(Duration.ofMillis(config.connectTimeoutMs()));
        } catch (GatewayException e) {
            // a fresh client next time: this one may still be half-way through its attempt
            limits = null;
            client = null;
            log.debug("MQTT sink {} could not connect to {} ({}): {}", id, broker, e.failureClass(), e.getMessage());
            throw e;
        }
        connections++;
        log.debug("MQTT sink {} connected to {} as {} (maximum packet {} bytes, {})", id, broker, clientId,
                limits.maxPacketBytes(), limits.limitSource());
        return c;
    }

    /** Drops the connection and the client, so the next write connects a new one. */
    private void discard(PublishingClient c) {
        limits = null;
        client = null;
        c.disconnectQuietly();
    }

    /** How many connections this sink has made so far (for tests: a failure that must not cost the connection). */
    int connections() {
        return connections;
    }

    private boolean connected() {
        PublishingClient c = client;
        return c != null && c.connected();
    }

    @Override
    public ConnectionStatus probe() {
        return probe.probe();
    }

    /** Disconnects (a clean DISCONNECT when connected); idempotent. */
    @Override
    public void close() {
        closed = true;
        PublishingClient c = client;
        client = null;
        limits = null;
        if (c != null) {
            c.disconnectQuietly();
        }
        acknowledged.forget();
    }
}
