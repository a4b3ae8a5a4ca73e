package io.qubiq.connector.mqtt;

import com.hivemq.client.mqtt.MqttClientBuilder;
import com.hivemq.client.mqtt.exceptions.ConnectionFailedException;
import com.hivemq.client.mqtt.mqtt3.Mqtt3AsyncClient;
import com.hivemq.client.mqtt.mqtt3.exceptions.Mqtt3ConnAckException;
import com.hivemq.client.mqtt.mqtt3.message.connect.connack.Mqtt3ConnAckReturnCode;
import com.hivemq.client.mqtt.mqtt5.Mqtt5AsyncClient;
import com.hivemq.client.mqtt.mqtt5.exceptions.Mqtt5ConnAckException;
import com.hivemq.client.mqtt.mqtt5.message.connect.connack.Mqtt5ConnAckReasonCode;
import io.qubiq.core.connector.ProbeResult;
import io.qubiq.core.connector.ProbeResult.CertificateTrust;
import io.qubiq.mqtt.BrokerSettings;
import io.qubiq.mqtt.ClientBuilders;
import io.qubiq.mqtt.MqttProtocol;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLException;

/**
 * "Test connection" for MQTT settings: a client of its own ({@code <client id>-probe}, so the running
 * connection keeps its session) connects once with a clean session, the configured address, TLS and
 * credentials, and disconnects. A CONNACK that accepts is <b>reachable</b> and <b>authenticated</b>;
 * one that refuses the credentials is reachable, not authenticated; a TLS handshake that fails on the
 * broker's certificate is an <b>untrusted</b> certificate; no answer is unreachable. The latency is the
 * connect round trip (TCP, TLS, CONNECT to CONNACK). Nothing is subscribed or published. Bounded by
 * {@code timeout} (socket connect and CONNACK). Stateless; safe from any thread.
 */
public final class MqttProbe {

    private MqttProbe() {
    }

    /** Probes the broker of {@code config} as client {@code clientId}-probe; never throws for a broker failure. */
    public static ProbeResult probe(String clientId, MqttConnectionConfig config, Duration timeout) {
        BrokerSettings broker = config.broker();
        String address = (broker.tls() ? "mqtts://" : "mqtt://") + broker.host() + ":" + broker.port();
        CertificateTrust tlsTrust = !broker.tls() ? CertificateTrust.NOT_USED
                : broker.tlsVerify() ? CertificateTrust.TRUSTED : CertificateTrust.NOT_VERIFIED;
        MqttClientBuilder builder = ClientBuilders.builder(broker, clientId + "-probe", timeout);
        long started = System.nanoTime();
        Runnable disconnect;
        CompletableFuture<?> connected;
        if (broker.protocol() == MqttProtocol.MQTT_5) {
            Mqtt5AsyncClient client = ClientBuilders.mqtt5(builder, broker).buildAsync();
            connected = client.connectWith().cleanStart(true).keepAlive(config.keepAliveS()).send();
            disconnect = client::disconnect;
        } else {
            Mqtt3AsyncClient client = ClientBuilders.mqtt3(builder, broker).buildAsync();
            connected = client.connectWith().cleanSession(true).keepAlive(config.keepAliveS()).send();
            disconnect = client::disconnect;
        }
        try {
            connected.get(timeout.toMillis() + 500, TimeUnit.MILLISECONDS);
            long latency = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            return ProbeResult.ok(tlsTrust, latency, "connected to " + address + " (" + protocol(broker) + ", "
                    + broker.username().map(u -> "user " + u).orElse("no user name") + "): the broker accepted"
                    + " the connection in " + latency + " ms");
        } catch (ExecutionException e) {
            return refused(e.getCause(), address, tlsTrust, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
        } catch (TimeoutException e) {
            return ProbeResult.unreachable("no answer from " + address + " within " + timeout.toMillis()
                    + " ms; check the host, the port and that the broker runs");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return ProbeResult.unreachable("the test of " + address + " was interrupted");
        } finally {
            connected.cancel(true);
            try {
                disconnect.run();
            } catch (RuntimeException ignored) {
                // not connected: nothing to close
            }
        }
    }

    private static ProbeResult refused(Throwable cause, String address, CertificateTrust tlsTrust, long latencyMs) {
        if (cause instanceof Mqtt3ConnAckException refused) {
            Mqtt3ConnAckReturnCode code = refused.getMqttMessage().getReturnCode();
            boolean credentials = code == Mqtt3ConnAckReturnCode.NOT_AUTHORIZED
                    || code == Mqtt3ConnAckReturnCode.BAD_USER_NAME_OR_PASSWORD;
            return refusal(address, credentials, code.name(), tlsTrust, latencyMs);
        }
        if (cause instanceof Mqtt5ConnAckException refused) {
            Mqtt5ConnAckReasonCode code = refused.getMqttMessage().getReasonCode();
            boolean credentials = code == Mqtt5ConnAckReasonCode.NOT_AUTHORIZED
                    || code == Mqtt5ConnAckReasonCode.BAD_USER_NAME_OR_PASSWORD;
            return refusal(address, credentials, code.name(), tlsTrust, latencyMs);
        }
        Throwable root = cause;
        while (root.getCause() != null && root.getCause() != root) {
            if (root instanceof SSLException) {
                break;
            }
            root = root.getCause();
        }
        if (root instanceof SSLException) {
            return ProbeResult.failed(Optional.empty(), CertificateTrust.UNTRUSTED, Optional.empty(), "the TLS handshake"
                    + " with " + address + " failed: " + root.getMessage() + "; the broker's certificate must be trusted"
                    + " by the JVM trust store (or set tls_verify false, for tests only)");
        }
        String what = cause instanceof ConnectionFailedException && cause.getCause() != null ? cause.getCause().toString()
                : cause.toString();
        return ProbeResult.unreachable("cannot reach " + address + ": " + what
                + "; check the host, the port, tls and that the broker runs");
    }

    private static ProbeResult refusal(String address, boolean credentials, String code, CertificateTrust tlsTrust,
                                       long latencyMs) {
        String why = credentials
                ? address + " refused the credentials (" + code + "): check username and password"
                : address + " refused the connection (" + code + ")";
        return ProbeResult.failed(credentials ? Optional.of(false) : Optional.empty(), tlsTrust, Optional.of(latencyMs),
                why);
    }

    private static String protocol(BrokerSettings broker) {
        return broker.protocol().name().toLowerCase();
    }
}
