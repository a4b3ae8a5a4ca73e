package io.qubiq.connector.mqtt;

import io.qubiq.core.config.ConfigChecked;
import io.qubiq.core.config.Default;
import io.qubiq.core.config.Doc;
import io.qubiq.core.config.Inline;
import io.qubiq.core.config.Range;
import io.qubiq.mqtt.BrokerEndpoint;
import io.qubiq.mqtt.BrokerSettings;
import io.qubiq.mqtt.ClientIdentifiers;
import io.qubiq.mqtt.MqttProtocol;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The settings of one MQTT device connection; see docs/connectors/mqtt.md. The broker's address, TLS and
 * credentials ({@code host} … {@code password}) are the keys shared with the sink, declared in
 * {@link BrokerEndpoint} and written at this level.
 */
@Doc("An MQTT device connection: the broker, the session, the subscriptions that become tags, and the"
        + " tags that accept writes.")
public record MqttConnectionConfig(
        @Inline
        BrokerEndpoint endpoint,

        @Doc("The MQTT client identifier. Left out: qubiq-<gateway>-<connection id>. Two clients with the same"
                + " identifier take the connection from each other.")
        Optional<String> clientId,

        @Doc("The protocol version: mqtt_3_1_1 or mqtt_5.")
        @Default("mqtt_3_1_1")
        MqttProtocol protocol,

        @Doc("true: the broker forgets the session at every connect. false: a persistent session, so the broker"
                + " keeps the subscriptions and queues QoS 1 and 2 messages while the gateway is away.")
        @Default("true")
        boolean cleanSession,

        @Doc("mqtt_5 with clean_session false: how long the broker keeps the session after a disconnect"
                + " (MQTT 3.1.1 brokers keep it as they are configured).")
        @Default("86400")
        @Range(min = 0, max = 4294967295L)
        long sessionExpiryS,

        @Doc("The keep-alive interval; the broker drops the connection after 1.5 times this without traffic."
                + " 0 disables it.")
        @Default("30")
        @Range(min = 0, max = 65535)
        int keepAliveS,

        @Doc("First wait before reconnecting after the connection dropped or an attempt failed; doubles per"
                + " failed attempt.")
        @Default("1000")
        @Range(min = 10, max = 600000)
        long reconnectInitialMs,

        @Doc("Longest wait between reconnect attempts. Keep it short: while the gateway waits, the broker queues"
                + " the session's messages and drops them past its queue limit (mosquitto max_queued_messages).")
        @Default("5000")
        @Range(min = 10, max = 3600000)
        long reconnectMaxMs,

        @Doc("How long a tag write may wait for the broker's acknowledgement (QoS 1 and 2) before it fails as"
                + " outcome unknown.")
        @Default("5000")
        @Range(min = 100, max = 600000)
        long writeTimeoutMs,

        @Doc("The topic filters whose messages become tag values.")
        List<MqttSubscriptionConfig> subscriptions,

        @Doc("The tags that accept writes, each with its command topic. Writes to other tags are rejected.")
        @Default("[]")
        List<MqttWritableTagConfig> writableTags,

        @Doc("Most tags this connection creates from topics matched by wildcard subscriptions (+, #). A message"
                + " that would create one more is refused: counted (tag_limit_refusals), in the loss ledger"
                + " (dynamic_tag_limit), one WARN line and an alarm. Tags of subscriptions without wildcards and"
                + " writable tags are not limited.")
        @Default("10000")
        @Range(min = 0, max = 10000000)
        int maxDynamicTags) implements ConfigChecked {

    /** The default of {@code max_dynamic_tags}. */
    public static final int DEFAULT_MAX_DYNAMIC_TAGS = 10_000;

    public MqttConnectionConfig {
        Objects.requireNonNull(endpoint, "endpoint");
        subscriptions = List.copyOf(subscriptions);
        writableTags = List.copyOf(writableTags);
    }

    /** A connection with defaults for everything but the broker and the subscriptions; for code and tests. */
    public static MqttConnectionConfig of(String host, int port, List<MqttSubscriptionConfig> subscriptions) {
        return new MqttConnectionConfig(BrokerEndpoint.of(host, port), Optional.empty(), MqttProtocol.MQTT_3_1_1,
                true, 86400, 30, 1000, 5000, 5000, subscriptions, List.of(), DEFAULT_MAX_DYNAMIC_TAGS);
    }

    public MqttConnectionConfig withProtocol(MqttProtocol value) {
        return new MqttConnectionConfig(endpoint, clientId, value, cleanSession, sessionExpiryS, keepAliveS,
                reconnectInitialMs, reconnectMaxMs, writeTimeoutMs, subscriptions, writableTags, maxDynamicTags);
    }

    public MqttConnectionConfig withTls(int tlsPort, boolean verify) {
        return new MqttConnectionConfig(endpoint.withTls(tlsPort, verify), clientId, protocol, cleanSession,
                sessionExpiryS, keepAliveS, reconnectInitialMs, reconnectMaxMs, writeTimeoutMs, subscriptions,
                writableTags, maxDynamicTags);
    }

    public MqttConnectionConfig withPersistentSession(String id) {
        return new MqttConnectionConfig(endpoint, Optional.of(id), protocol, false, sessionExpiryS, keepAliveS,
                reconnectInitialMs, reconnectMaxMs, writeTimeoutMs, subscriptions, writableTags, maxDynamicTags);
    }

    public MqttConnectionConfig withReconnect(long initialMs, long maxMs) {
        return new MqttConnectionConfig(endpoint, clientId, protocol, cleanSession, sessionExpiryS, keepAliveS,
                initialMs, maxMs, writeTimeoutMs, subscriptions, writableTags, maxDynamicTags);
    }

    public MqttConnectionConfig withWritableTags(List<MqttWritableTagConfig> value) {
        return new MqttConnectionConfig(endpoint, clientId, protocol, cleanSession, sessionExpiryS, keepAliveS,
                reconnectInitialMs, reconnectMaxMs, writeTimeoutMs, subscriptions, value, maxDynamicTags);
    }

    public MqttConnectionConfig withMaxDynamicTags(int value) {
        return new MqttConnectionConfig(endpoint, clientId, protocol, cleanSession, sessionExpiryS, keepAliveS,
                reconnectInitialMs, reconnectMaxMs, writeTimeoutMs, subscriptions, writableTags, value);
    }

    /** The same connection signing in with {@code user} and {@code secret}. */
    public MqttConnectionConfig withCredentials(String user, String secret) {
        return new MqttConnectionConfig(endpoint.withCredentials(user, secret), clientId, protocol, cleanSession,
                sessionExpiryS, keepAliveS, reconnectInitialMs, reconnectMaxMs, writeTimeoutMs, subscriptions,
                writableTags, maxDynamicTags);
    }

    /** The configured client id, or {@code qubiq-<gateway>-<connection>} with unusual characters replaced by _. */
    public String effectiveClientId(String gatewayId, String connectionId) {
        return clientId.orElseGet(() -> ClientIdentifiers.derived("qubiq-" + gatewayId + "-" + connectionId));
    }

    /** The address, TLS, credentials and protocol, as the client builder shared with the sink takes them. */
    public BrokerSettings broker() {
        return endpoint.settings(protocol);
    }

    @Override
    public String toString() {
        return "MqttConnectionConfig[host=" + endpoint.host() + ", port=" + endpoint.port() + ", tls=" + endpoint.tls()
                + ", username=" + endpoint.username().orElse("(none)") + ", password="
                + (endpoint.password().isPresent() ? "***" : "(none)") + ", clientId=" + clientId.orElse("(derived)")
                + ", protocol=" + protocol + ", cleanSession=" + cleanSession + ", subscriptions=" + subscriptions.size()
                + ", writableTags=" + writableTags.size() + ", maxDynamicTags=" + maxDynamicTags + "]";
    }

    @Override
    public List<Violation> violations() {
        List<Violation> violations = new ArrayList<>(broker().violations());
        if (reconnectMaxMs < reconnectInitialMs) {
            violations.add(new Violation("reconnect_max_ms", "must be at least reconnect_initial_ms ("
                    + reconnectInitialMs + "), was " + reconnectMaxMs));
        }
        ClientIdentifiers.violation(clientId).ifPresent(violations::add);
        if (!cleanSession && protocol == MqttProtocol.MQTT_5 && sessionExpiryS == 0) {
            violations.add(new Violation("session_expiry_s", "must be above 0 with clean_session false: with 0 the"
                    + " broker drops the session at every disconnect"));
        }
        Map<String, Integer> seen = new HashMap<>();
        for (int i = 0; i < writableTags.size(); i++) {
            Integer first = seen.putIfAbsent(writableTags.get(i).tag(), i);
            if (first != null) {
                violations.add(new Violation("writable_tags[" + i + "].tag", "\"" + writableTags.get(i).tag()
                        + "\" is already listed by writable_tags[" + first + "]"));
            }
        }
        return violations;
    }
}
