package io.qubiq.sink.mqtt;

import com.hivemq.client.mqtt.MqttClientBuilder;
import io.qubiq.mqtt.BrokerSettings;
import io.qubiq.mqtt.ClientBuilders;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Builds the {@link PublishingClient} for a configuration and a client id, with the settings both
 * protocol versions share: address, TLS and credentials ({@link ClientBuilders}, shared with the
 * connector), socket and CONNACK timeouts of {@code connect_timeout_ms}, no automatic reconnect,
 * and a disconnected listener that counts disconnects (see {@link PublishingClient} for why).
 * Stateless.
 */
final class PublishingClients {

    private PublishingClients() {
    }

    static PublishingClient create(MqttSinkConfig config, String clientId) {
        AtomicInteger disconnects = new AtomicInteger();
        BrokerSettings broker = config.broker();
        MqttClientBuilder builder = ClientBuilders.builder(broker, clientId, Duration.ofMillis(config.connectTimeoutMs()))
                .addDisconnectedListener(context -> disconnects.incrementAndGet());
        return config.mqtt5()
                ? new Mqtt5PublishingClient(ClientBuilders.mqtt5(builder, broker), config, broker.address(), disconnects)
                : new Mqtt3PublishingClient(ClientBuilders.mqtt3(builder, broker), config, broker.address(), disconnects);
    }
}
