package io.qubiq.sink.mqtt;

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
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * How the MQTT sink reaches its broker; see {@code docs/sinks/mqtt.md}. The session is always clean
 * and the client never reconnects on its own: the store-and-forward channel retries, the sink
 * connects once per write when it is not connected. The broker's address, TLS and credentials
 * ({@code host} … {@code password}) are the keys shared with the device connector, declared in
 * {@link BrokerEndpoint} and written at this level.
 */
@Doc("An MQTT broker the gateway publishes to.")
public record MqttSinkConfig(
        @Inline
        BrokerEndpoint endpoint,

        @Doc("The MQTT client identifier. Left out: qubiq-sink-<connection id>. Two clients with the same identifier"
                + " take the connection from each other, so gateways that share a broker and a connection id must"
                + " set it. The health probe connects as <client_id>-probe.")
        Optional<String> clientId,

        @Doc("The protocol version: mqtt_5 or mqtt_3_1_1 (as for device connections). Only MQTT 5 reports a"
                + " refused publish (a reason code in PUBACK or PUBREC) and announces the broker's maximum packet size.")
        @Default("mqtt_5")
        MqttProtocol protocol,

        @Doc("The keep-alive interval; the broker drops the connection after 1.5 times this without traffic."
                + " 0 disables it.")
        @Default("60")
        @Range(min = 0, max = 65535)
        int keepAliveS,

        @Doc("How long one connection attempt (TCP, TLS, CONNECT and CONNACK) may take. A write that finds the"
                + " sink disconnected makes exactly one attempt: failing it is transient (a configuration error when"
                + " the broker refuses the credentials, client id or protocol, or TLS fails).")
        @Default("10000")
        @Range(min = 100, max = 600000)
        long connectTimeoutMs,

        @Doc("How long a write waits for the broker's acknowledgements (PUBACK for QoS 1, PUBCOMP for QoS 2)"
                + " after publishing the batch. A message still unacknowledged then has an unknown outcome: the"
                + " broker may have it.")
        @Default("10000")
        @Range(min = 100, max = 3600000)
        long publishTimeoutMs,

        @Doc("The broker's maximum packet size, when it cannot announce it (MQTT 3.1.1) or announces a larger one"
                + " than it enforces. A message whose PUBLISH packet would be larger is refused before it is sent"
                + " (permanent, that message only). Left out: MQTT 5 takes the limit from CONNACK; MQTT 3.1.1 has"
                + " none, and a broker that drops the connection over a large packet looks like an outage.")
        @Range(min = 32, max = 268435460)
        Optional<Integer> maxPacketBytes) implements ConfigChecked {

    public MqttSinkConfig {
        Objects.requireNonNull(endpoint, "endpoint");
    }

    /** A plain MQTT 5 connection to {@code host:port}, every other key at its default. */
    public static MqttSinkConfig of(String host, int port) {
        return new MqttSinkConfig(BrokerEndpoint.of(host, port), Optional.empty(), MqttProtocol.MQTT_5, 60, 10_000,
                10_000, Optional.empty());
    }

    public MqttSinkConfig withProtocol(MqttProtocol value) {
        return new MqttSinkConfig(endpoint, clientId, value, keepAliveS, connectTimeoutMs, publishTimeoutMs,
                maxPacketBytes);
    }

    public MqttSinkConfig withTls(int tlsPort, boolean verify) {
        return new MqttSinkConfig(endpoint.withTls(tlsPort, verify), clientId, protocol, keepAliveS, connectTimeoutMs,
                publishTimeoutMs, maxPacketBytes);
    }

    public MqttSinkConfig withCredentials(String user, String secret) {
        return new MqttSinkConfig(endpoint.withCredentials(user, secret), clientId, protocol, keepAliveS,
                connectTimeoutMs, publishTimeoutMs, maxPacketBytes);
    }

    public MqttSinkConfig withClientId(String value) {
        return new MqttSinkConfig(endpoint, Optional.of(value), protocol, keepAliveS, connectTimeoutMs,
                publishTimeoutMs, maxPacketBytes);
    }

    public MqttSinkConfig withTimeouts(long connectMs, long publishMs) {
        return new MqttSinkConfig(endpoint, clientId, protocol, keepAliveS, connectMs, publishMs, maxPacketBytes);
    }

    public MqttSinkConfig withMaxPacketBytes(int value) {
        return new MqttSinkConfig(endpoint, clientId, protocol, keepAliveS, connectTimeoutMs, publishTimeoutMs,
                Optional.of(value));
    }

    /** Whether {@link #protocol()} is MQTT 5 (the default) rather than 3.1.1. */
    boolean mqtt5() {
        return protocol != MqttProtocol.MQTT_3_1_1;
    }

    /** The configured client id, or {@code qubiq-sink-<connection>} with unusual characters replaced by _. */
    public String effectiveClientId(String connectionId) {
        return clientId.orElseGet(() -> ClientIdentifiers.derived("qubiq-sink-" + connectionId));
    }

    /** The address, TLS, credentials and protocol, as the client builder shared with the connector takes them. */
    public BrokerSettings broker() {
        return endpoint.settings(protocol);
    }

    @Override
    public String toString() {
        return "MqttSinkConfig[host=" + endpoint.host() + ", port=" + endpoint.port() + ", tls=" + endpoint.tls()
                + ", tlsVerify=" + endpoint.tlsVerify() + ", username=" + endpoint.username().orElse("(none)")
                + ", password=" + (endpoint.password().isPresent() ? "***" : "(none)") + ", clientId="
                + clientId.orElse("(derived)") + ", protocol=" + protocol + ", keepAliveS=" + keepAliveS
                + ", connectTimeoutMs=" + connectTimeoutMs + ", publishTimeoutMs=" + publishTimeoutMs
                + ", maxPacketBytes=" + maxPacketBytes.map(String::valueOf).orElse("(broker's)") + "]";
    }

    @Override
    public List<Violation> violations() {
        List<Violation> violations = new ArrayList<>(broker().violations());
        if (!endpoint.tls() && !endpoint.tlsVerify()) {
            violations.add(new Violation("tls_verify", "only applies with tls: true"));
        }
        ClientIdentifiers.violation(clientId).ifPresent(violations::add);
        return violations;
    }
}
