package io.qubiq.mqtt;

import io.qubiq.core.config.Default;
import io.qubiq.core.config.Doc;
import io.qubiq.core.config.Range;
import io.qubiq.core.config.Secret;
import java.util.Optional;

/**
 * The configuration keys both MQTT sections use to reach a broker, declared once: its address, TLS and
 * the credentials sent in CONNECT. The device connection's and the sink's records include it with
 * {@code @Inline}, so the keys stay where the files have always written them
 * ({@code devices.<id>.mqtt.host}, {@code outbound.<id>.mqtt.password}), and each keeps what differs
 * between them (the protocol version and its default, the client id, timeouts) as keys of its own.
 * {@link #settings} adds the protocol version for the client builder. Immutable; {@link #toString}
 * never shows the password.
 */
public record BrokerEndpoint(
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
        Optional<String> password) {

    /** Plain TCP to {@code host:port} without credentials, as a file that writes only those keys gets. */
    public static BrokerEndpoint of(String host, int port) {
        return new BrokerEndpoint(host, port, false, true, Optional.empty(), Optional.empty());
    }

    /** The same broker over TLS on {@code tlsPort}, verifying its certificate or not. */
    public BrokerEndpoint withTls(int tlsPort, boolean verify) {
        return new BrokerEndpoint(host, tlsPort, true, verify, username, password);
    }

    /** The same broker, signing in with {@code user} and {@code secret}. */
    public BrokerEndpoint withCredentials(String user, String secret) {
        return new BrokerEndpoint(host, port, tls, tlsVerify, Optional.of(user), Optional.of(secret));
    }

    /** These keys with the side's protocol version, as the client builder and the shared checks take them. */
    public BrokerSettings settings(MqttProtocol protocol) {
        return new BrokerSettings(host, port, tls, tlsVerify, username, password, protocol);
    }

    @Override
    public String toString() {
        return "BrokerEndpoint[host=" + host + ", port=" + port + ", tls=" + tls + ", tlsVerify=" + tlsVerify
                + ", username=" + username.orElse("(none)") + ", password=" + (password.isPresent() ? "***" : "(none)")
                + "]";
    }
}
