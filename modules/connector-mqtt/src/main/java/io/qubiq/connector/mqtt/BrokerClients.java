package io.qubiq.connector.mqtt;

import com.hivemq.client.mqtt.MqttClient;
import com.hivemq.client.mqtt.MqttClientBuilder;
import com.hivemq.client.mqtt.MqttClientSslConfig;
import com.hivemq.client.mqtt.lifecycle.MqttClientAutoReconnect;
import com.hivemq.client.mqtt.lifecycle.MqttClientDisconnectedContext;
import java.util.concurrent.TimeUnit;

/**
 * Builds the {@link BrokerClient} for a connection's protocol, with the settings both versions
 * share: identifier, address, TLS, and automatic reconnect with exponential backoff from
 * {@code reconnect_initial_ms} to {@code reconnect_max_ms}. The disconnected listener tells the
 * reconnector to republish unacknowledged QoS 1/2 messages even when the broker lost the session
 * ({@code republishIfSessionExpired}) and leaves resubscribing to {@link ResubscribeOnReconnect},
 * which knows the configured subscriptions. Stateless.
 */
final class BrokerClients {

    private BrokerClients() {
    }

    static BrokerClient create(MqttConnectionConfig config, String clientId, BrokerClient.Events events) {
        MqttClientBuilder builder = MqttClient.builder()
                .identifier(clientId)
                .serverHost(config.host())
                .serverPort(config.port())
                .automaticReconnect(MqttClientAutoReconnect.builder()
                        .initialDelay(config.reconnectInitialMs(), TimeUnit.MILLISECONDS)
                        .maxDelay(config.reconnectMaxMs(), TimeUnit.MILLISECONDS)
                        .build())
                .addDisconnectedListener(context -> onDisconnected(context, events));
        if (config.tls()) {
            builder = builder.sslConfig(sslConfig(config));
        }
        return config.protocol() == MqttProtocol.MQTT_5
                ? new Mqtt5BrokerClient(builder.useMqttVersion5(), config, events)
                : new Mqtt3BrokerClient(builder.useMqttVersion3(), config, events);
    }

    private static void onDisconnected(MqttClientDisconnectedContext context, BrokerClient.Events events) {
        context.getReconnector()
                .republishIfSessionExpired(true)
                .resubscribeIfSessionExpired(false);
        events.disconnected(context.getCause());
    }

    private static MqttClientSslConfig sslConfig(MqttConnectionConfig config) {
        if (config.tlsVerify()) {
            return MqttClientSslConfig.builder().build();
        }
        return MqttClientSslConfig.builder()
                .trustManagerFactory(TrustAllCertificates.factory())
                .hostnameVerifier((host, session) -> true)
                .build();
    }
}
