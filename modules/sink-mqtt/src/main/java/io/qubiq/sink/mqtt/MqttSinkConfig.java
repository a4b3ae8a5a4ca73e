package io.qubiq.sink.mqtt;

import io.qubiq.core.config.ConfigChecked;
import io.qubiq.core.config.Default;
import io.qubiq.core.config.Doc;
import io.qubiq.core.config.Range;
import io.qubiq.core.config.Secret;
import io.qubiq.mqtt.BrokerSettings;
import io.qubiq.mqtt.ClientIdentifiers;
import io.qubiq.mqtt.MqttProtocol;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * How the MQTT sink reaches its broker; see {@code docs/sinks/mqtt.md}. The session is always clean
 * and the client never reconnects on its own: the store-and-forward channel retries, the sink
 * connects once per write when it is not connected.
 */
@Doc("An MQTT broker the gateway publishes to.")
public record MqttSinkConfig(
        @Doc("The broker's host name or IP address.")
        String host,

        @Doc("The broker's TCP port (usually 1883, or 8883 with TLS).")
        @Default("1883")
        @Range(min = 1, max = 65535)
        int port,

        @Doc("Whether to connect over TLS.")
        @Default("false")
        boolean tls,

        @Doc("With tls: whether to verify the broker's certificate chain (JVM trust store) and host name."
                + " false accepts any certificate: for tests only.")
        @Default("true")
        boolean tlsVerify,

        @Doc("The user name sent in CONNECT. Left out: none.")
        Optional<String> username,

        @Doc("The password sent in CONNECT (needs username); write it as ${ENV_VAR} rather than in the file.")
        @Secret
        Optional<String> password,

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

    /** A plain MQTT 5 connection to {@code host:port}, every other key at its default. */
    public static MqttSinkConfig of(String host, int port) {
        return new MqttSinkConfig(host, port, false, true, Optional.empty(), Optional.empty(), Optional.empty(),
                MqttProtocol.MQTT_5, 60, 10_000, 10_000, Optional.empty());
    }

    public MqttSinkConfig withProtocol(MqttProtocol value) {
        return new MqttSinkConfig(host, port, tls, tlsVerify, username, password, clientId, value, keepAliveS,
                connectTimeoutMs, publishTimeoutMs, maxPacketBytes);
    }

    public MqttSinkConfig withTls(int tlsPort, boolean verify) {
        return new MqttSinkConfig(host, tlsPort, true, verify, username, password, clientId, protocol, keepAliveS,
                connectTimeoutMs, publishTimeoutMs, maxPacketBytes);
    }

    public MqttSinkConfig withCredentials(String user, String secret) {
        return new MqttSinkConfig(host, port, tls, tlsVerify, Optional.of(user), Optional.of(secret), clientId, protocol,
                keepAliveS, connectTimeoutMs, publishTimeoutMs, maxPacketBytes);
    }

    public MqttSinkConfig withClientId(String value) {
        return new MqttSinkConfig(host, port, tls, tlsVerify, username, password, Optional.of(value), protocol,
                keepAliveS, connectTimeoutMs, publishTimeoutMs, maxPacketBytes);
    }

    public MqttSinkConfig withTimeouts(long connectMs, long publishMs) {
        return new MqttSinkConfig(host, port, tls, tlsVerify, username, password, clientId, protocol, keepAliveS,
                connectMs, publishMs, maxPacketBytes);
    }

    public MqttSinkConfig withMaxPacketBytes(int value) {
        return new MqttSinkConfig(host, port, tls, tlsVerify, username, password, clientId, protocol, keepAliveS,
                connectTimeoutMs, publishTimeoutMs, Optional.of(value));
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
        return new BrokerSettings(host, port, tls, tlsVerify, username, password, protocol);
    }

    @Override
    public String toString() {
        return "MqttSinkConfig[host=" + host + ", port=" + port + ", tls=" + tls + ", tlsVerify=" + tlsVerify
                + ", username=" + username.orElse("(none)") + ", password=" + (password.isPresent() ? "***" : "(none)")
                + ", clientId=" + clientId.orElse("(derived)") + ", protocol=" + protocol + ", keepAliveS=" + keepAliveS
                + ", connectTimeoutMs=" + connectTimeoutMs + ", publishTimeoutMs=" + publishTimeoutMs
                + ", maxPacketBytes=" + maxPacketBytes.map(String::valueOf).orElse("(broker's)") + "]";
    }

    @Override
    public List<Violation> violations() {
        List<Violation> violations = new ArrayList<>(broker().violations());
        if (!tls && !tlsVerify) {
            violations.add(new Violation("tls_verify", "only applies with tls: true"));
        }
        ClientIdentifiers.violation(clientId).ifPresent(violations::add);
        return violations;
    }
}
