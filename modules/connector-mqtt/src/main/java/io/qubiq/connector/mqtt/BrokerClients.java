package io.qubiq.connector.mqtt;

import com.hivemq.client.mqtt.MqttClientBuilder;
import com.hivemq.client.mqtt.lifecycle.MqttClientAutoReconnect;
import com.hivemq.client.mqtt.lifecycle.MqttClientDisconnectedContext;
import io.qubiq.mqtt.BrokerSettings;
import io.qubiq.mqtt.ClientBuilders;
import io.qubiq.mqtt.MqttProtocol;
import java.util.concurrent.TimeUnit;

/**
 * Builds the {@link BrokerClient} for a connection's protocol, with the settings both versions
 * share: identifier, address, TLS and credentials ({@link ClientBuilders}, shared with the sink),
 * and automatic reconnect with exponential backoff from
 * {@code reconnect_initial_ms} to {@code reconnect_max_ms}. The disconnected listener tells the
 * reconnector to republish unacknowledged QoS 1/2 messages even when the broker lost the session
 * ({@code republishIfSessionExpired}) and leaves resubscribing to {@link ResubscribeOnReconnect},
 * which knows the configured subscriptions. Stateless.
 */
final class BrokerClients {

    private BrokerClients() {
    }

    static BrokerClient create(MqttConnectionConfig config, String clientId, BrokerClient.Events events) {
        BrokerSettings broker = config.broker();
        MqttClientBuilder builder = ClientBuilders.builder(broker, clientId)
                .automaticReconnect(MqttClientAutoReconnect.builder()
                        .initialDelay(config.reconnectInitialMs(), TimeUnit.MILLISECONDS)
                        .maxDelay(config.reconnectMaxMs(), TimeUnit.MILLISECONDS)
                        .build())
                .addDisconnectedListener(context -> onDisconnected(context, events));
        return broker.protocol() == MqttProtocol.MQTT_5
                ? new Mqtt5BrokerClient(ClientBuilders.mqtt5(builder, broker), config, events)
                : new Mqtt3BrokerClient(ClientBuilders.mqtt3(builder, broker), config, events);
    }

    private static void onDisconnected(MqttClientDisconnectedContext context, BrokerClient.Events events) {
        context.getReconnector()
                .republishIfSessionExpired(true)
                .resubscribeIfSessionExpired(false);
        events.disconnected(context.getCause());
    }
}
