package io.qubiq.sink.mqtt;

import com.hivemq.client.mqtt.exceptions.ConnectionClosedException;
import com.hivemq.client.mqtt.exceptions.ConnectionFailedException;
import com.hivemq.client.mqtt.exceptions.MqttClientStateException;
import com.hivemq.client.mqtt.exceptions.MqttEncodeException;
import com.hivemq.client.mqtt.exceptions.MqttSessionExpiredException;
import com.hivemq.client.mqtt.mqtt5.exceptions.Mqtt5DisconnectException;
import com.hivemq.client.mqtt.mqtt5.exceptions.Mqtt5PubAckException;
import com.hivemq.client.mqtt.mqtt5.exceptions.Mqtt5PubRecException;
import com.hivemq.client.mqtt.mqtt5.message.Mqtt5ReasonCode;
import io.qubiq.core.error.ConfigurationException;
import io.qubiq.core.error.GatewayException;
import io.qubiq.core.error.PermanentException;
import io.qubiq.core.error.TransientException;
import io.qubiq.core.error.UnknownOutcomeException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import javax.net.ssl.SSLException;

/**
 * Turns what the HiveMQ client reports into the failure class the channel acts on: per message
 * ({@link #outcomeOf}), per batch ({@link #verdict}) and per connection attempt
 * ({@link #connectFailed}, {@link #connectRefused}).
 *
 * <table>
 *   <caption>Classification</caption>
 *   <tr><th>What happened</th><th>Class</th></tr>
 *   <tr><td>connection refused, unreachable, timed out; not connected; connection closed or session
 *       ended before the acknowledgement (for QoS 2: before PUBCOMP)</td><td>transient</td></tr>
 *   <tr><td>PUBACK or PUBREC with a failure reason code (0x80 and above; MQTT 5 only)</td>
 *       <td>permanent, those messages, the others written</td></tr>
 *   <tr><td>PUBLISH larger than the broker's maximum packet size (checked before sending), or a
 *       message the client cannot encode</td><td>permanent, those messages, the others written</td></tr>
 *   <tr><td>no acknowledgement within {@code publish_timeout_ms}, or an unforeseen client error after
 *       sending</td><td>unknown outcome</td></tr>
 *   <tr><td>CONNACK refusing the credentials, the client id or the protocol version; TLS handshake
 *       failure</td><td>configuration</td></tr>
 *   <tr><td>any other CONNACK refusal (server unavailable, busy, quota)</td><td>transient</td></tr>
 * </table>
 *
 * A batch with several kinds takes the first of transient, unknown outcome, permanent: a lost
 * connection means the batch is replayed anyway, and a replay settles the other messages too.
 *
 * <p>Stateless and thread-safe.
 */
final class FailureClassifier {

    private FailureClassifier() {
    }

    /** The outcome of one message whose publish future failed with {@code error}. */
    static PublishOutcome outcomeOf(Throwable error) {
        Throwable e = unwrap(error);
        if (e instanceof Mqtt5PubAckException ack) {
            return refused(ack.getMqttMessage().getReasonCode(), ack.getMqttMessage().getReasonString()
                    .map(Object::toString), "PUBACK");
        }
        if (e instanceof Mqtt5PubRecException rec) {
            return refused(rec.getMqttMessage().getReasonCode(), rec.getMqttMessage().getReasonString()
                    .map(Object::toString), "PUBREC");
        }
        if (e instanceof MqttEncodeException) {
            return new PublishOutcome.RejectedByClient("the MQTT client cannot encode it: " + e.getMessage());
        }
        if (e instanceof MqttClientStateException || e instanceof ConnectionClosedException
                || e instanceof MqttSessionExpiredException || e instanceof ConnectionFailedException
                || e instanceof Mqtt5DisconnectException) {
            return new PublishOutcome.ConnectionLost(describe(e));
        }
        return new PublishOutcome.Failed(describe(e));
    }

    private static PublishOutcome refused(Mqtt5ReasonCode code, Optional<String> reasonString, String packet) {
        return new PublishOutcome.Refused(code.getCode(), packet + " reason code 0x" + Integer.toHexString(code.getCode())
                + " " + code + reasonString.map(reason -> ": " + reason).orElse(""));
    }

    /**
     * The one failure of a batch whose messages ended as {@code outcomes} (same order as the batch),
     * or empty when every message was acknowledged.
     *
     * @param broker how messages name the broker, such as {@code mqtt://10.0.0.5:1883}
     */
    static Optional<GatewayException> verdict(List<PublishOutcome> outcomes, String broker) {
        int lost = 0;
        int unanswered = 0;
        int acknowledged = 0;
        String firstLost = null;
        String firstFailed = null;
        List<PermanentException.RejectedItem> rejected = new ArrayList<>();
        for (int i = 0; i < outcomes.size(); i++) {
            PublishOutcome outcome = outcomes.get(i);
            if (outcome instanceof PublishOutcome.Acknowledged) {
                acknowledged++;
            } else if (outcome instanceof PublishOutcome.ConnectionLost l) {
                lost++;
                firstLost = firstLost == null ? l.reason() : firstLost;
            } else if (outcome instanceof PublishOutcome.Unanswered) {
                unanswered++;
            } else if (outcome instanceof PublishOutcome.Failed f) {
                unanswered++;
                firstFailed = firstFailed == null ? f.reason() : firstFailed;
            } else if (outcome instanceof PublishOutcome.Refused r) {
                rejected.add(new PermanentException.RejectedItem(i, "the broker refused the message: " + r.reason()));
            } else if (outcome instanceof PublishOutcome.TooLarge t) {
                rejected.add(new PermanentException.RejectedItem(i, "the PUBLISH packet would be " + t.packetBytes()
                        + " bytes; the broker's maximum packet size is " + t.maxPacketBytes() + " (" + t.limitSource()
                        + ")"));
            } else if (outcome instanceof PublishOutcome.RejectedByClient c) {
                rejected.add(new PermanentException.RejectedItem(i, c.reason()));
            }
        }
        int total = outcomes.size();
        if (lost > 0) {
            return Optional.of(new TransientException("MQTT broker " + broker + " unavailable: " + lost + " of " + total
                    + " messages were not acknowledged (" + firstLost + "); " + acknowledged + " were", null));
        }
        if (unanswered > 0) {
            return Optional.of(new UnknownOutcomeException(unanswered + " of " + total + " messages to MQTT broker " + broker
                    + " got no acknowledgement " + (firstFailed == null ? "within publish_timeout_ms"
                    : "(" + firstFailed + ")") + "; the broker may have them", null));
        }
        if (!rejected.isEmpty()) {
            return Optional.of(PermanentException.partial("MQTT broker " + broker + " did not take " + rejected.size()
                    + " of " + total + " messages (first: message " + rejected.get(0).index() + ", "
                    + rejected.get(0).reason() + "); the other " + (total - rejected.size()) + " were published", rejected,
                    null));
        }
        return Optional.empty();
    }

    /** A connection attempt that failed before a CONNACK (refused, unreachable, timed out, TLS). */
    static GatewayException connectFailed(Throwable error, String broker) {
        Throwable e = unwrap(error);
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof SSLException) {
                return new ConfigurationException("tls", "the TLS handshake with MQTT broker " + broker
                        + " failed (untrusted certificate, host name mismatch, or not a TLS port?): " + cause.getMessage(), e);
            }
        }
        return new TransientException("cannot connect to MQTT broker " + broker + ": " + describe(e), e);
    }

    /**
     * A CONNACK that refused the connection.
     *
     * @param code  the CONNACK reason code (MQTT 5) or return code (MQTT 3.1.1)
     * @param name  how the client names it, such as {@code NOT_AUTHORIZED}
     */
    static GatewayException connectRefused(int code, String name, boolean mqtt5, String broker, Throwable error) {
        String what = "MQTT broker " + broker + " refused the connection (CONNACK " + (mqtt5 ? "reason" : "return")
                + " code 0x" + Integer.toHexString(code) + " " + name + ")";
        Optional<String> key = mqtt5 ? mqtt5ConnAckKey(code) : mqtt3ConnAckKey(code);
        if (key.isPresent()) {
            return new ConfigurationException(key.get(), what, error);
        }
        return new TransientException(what, error);
    }

    private static Optional<String> mqtt5ConnAckKey(int code) {
        return switch (code) {
            case 0x84 -> Optional.of("protocol");
            case 0x85 -> Optional.of("client_id");
            case 0x86, 0x87, 0x8A, 0x8C -> Optional.of("username");
            default -> Optional.empty();
        };
    }

    private static Optional<String> mqtt3ConnAckKey(int code) {
        return switch (code) {
            case 1 -> Optional.of("protocol");
            case 2 -> Optional.of("client_id");
            case 4, 5 -> Optional.of("username");
            default -> Optional.empty();
        };
    }

    static Throwable unwrap(Throwable error) {
        Throwable e = error;
        while ((e instanceof CompletionException || e instanceof ExecutionException) && e.getCause() != null) {
            e = e.getCause();
        }
        return e;
    }

    /** "ConnectionClosedException: Server closed connection without DISCONNECT." with its first cause. */
    static String describe(Throwable e) {
        StringBuilder text = new StringBuilder(e.getClass().getSimpleName());
        if (e.getMessage() != null) {
            text.append(": ").append(e.getMessage());
        }
        Throwable cause = e.getCause();
        if (cause != null && cause != e) {
            text.append(" (").append(cause.getClass().getSimpleName());
            if (cause.getMessage() != null) {
                text.append(": ").append(cause.getMessage());
            }
            text.append(')');
        }
        return text.toString();
    }
}
