package io.qubiq.mqtt;

import io.qubiq.core.config.ConfigChecked.Violation;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What the device connector and the sink both need to reach a broker: its address, TLS, the
 * credentials sent in CONNECT and the protocol version. Each side's configuration record declares
 * the first ones through {@link BrokerEndpoint}, the protocol version with its own default, and hands
 * these over with {@code broker()}. Immutable; {@link #toString} never shows the password.
 *
 * @param tlsVerify with {@code tls}: verify the certificate chain (JVM trust store) and the host name;
 *     false accepts any certificate ({@link io.qubiq.core.tls.TrustEverything}, for tests only)
 * @param password sent only with a {@code username}
 */
public record BrokerSettings(String host, int port, boolean tls, boolean tlsVerify, Optional<String> username,
        Optional<String> password, MqttProtocol protocol) {

    /** {@code mqtt://host:port} or {@code mqtts://host:port}, for messages. */
    public String address() {
        return (tls ? "mqtts://" : "mqtt://") + host + ":" + port;
    }

    /**
     * The problems both configuration records report, with their keys and texts: an empty host, no
     * protocol, a password without a user name.
     */
    public List<Violation> violations() {
        List<Violation> violations = new ArrayList<>();
        if (host.isBlank()) {
            violations.add(new Violation("host", "must not be empty"));
        }
        if (protocol == null) {
            violations.add(new Violation("protocol", "expected mqtt_5 or mqtt_3_1_1"));
        }
        if (password.isPresent() && username.isEmpty()) {
            violations.add(new Violation("password", "needs a username (MQTT sends no password without one)"));
        }
        return violations;
    }

    /** Never shows the password (a log line or an exception message may print these settings). */
    @Override
    public String toString() {
        return "BrokerSettings[" + address() + ", tlsVerify=" + tlsVerify + ", username=" + username.orElse("(none)")
                + ", password=" + (password.isPresent() ? "***" : "(none)") + ", protocol=" + protocol + "]";
    }
}
