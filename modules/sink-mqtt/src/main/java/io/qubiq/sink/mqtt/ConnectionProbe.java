package io.qubiq.sink.mqtt;

import io.qubiq.core.error.GatewayException;
import io.qubiq.core.health.ConnectionStatus;
import java.time.Clock;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Checks an MQTT destination without publishing and without touching the sink's own connection:
 * while the sink's client is connected the answer is UP from its state alone; otherwise a separate
 * client ({@code <client_id>-probe}, clean session, same address, TLS and credentials) connects
 * once within {@code connect_timeout_ms} and disconnects. A CONNACK is UP; anything else is DOWN
 * with the reason. Never throws.
 *
 * <p>Thread-safe: each probe that needs the network uses a client of its own.
 */
final class ConnectionProbe {

    private final MqttSinkConfig config;
    private final String probeClientId;
    private final BooleanSupplier sinkConnected;
    private final Clock clock;

    ConnectionProbe(MqttSinkConfig config, String sinkClientId, BooleanSupplier sinkConnected, Clock clock) {
        this.config = config;
        this.probeClientId = sinkClientId + "-probe";
        this.sinkConnected = sinkConnected;
        this.clock = clock;
    }

    ConnectionStatus probe() {
        try {
            if (sinkConnected.getAsBoolean()) {
                return ConnectionStatus.up(clock.instant());
            }
            PublishingClient client = PublishingClients.create(config, probeClientId);
            try {
                client.connect(Duration.ofMillis(config.connectTimeoutMs()));
                return ConnectionStatus.up(clock.instant());
            } catch (GatewayException e) {
                return ConnectionStatus.down(clock.instant(), e.getMessage());
            } finally {
                client.disconnectQuietly();
            }
        } catch (RuntimeException e) {
            return ConnectionStatus.down(clock.instant(), "probing MQTT broker " + config.broker().address()
                    + " failed: " + e);
        }
    }
}
