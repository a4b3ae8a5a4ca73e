package io.qubiq.sink.mqtt;

import com.hivemq.client.mqtt.MqttClient;
import com.hivemq.client.mqtt.MqttClientBuilder;
import com.hivemq.client.mqtt.MqttClientSslConfig;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Builds the {@link PublishingClient} for a configuration and a client id, with the settings both
 * protocol versions share: address, socket and CONNACK timeouts of {@code connect_timeout_ms}, TLS,
 * no automatic reconnect, and a disconnected listener that counts disconnects (see {@link
 * PublishingClient} for why). Stateless.
 */
final class PublishingClients {

    private PublishingClients() {
    }

    static PublishingClient create(MqttSinkConfig config, String clientId) {
        AtomicInteger disconnects = new AtomicInteger();
        var transport = MqttClient.builder()
                .identifier(clientId)
                .addDisconnectedListener(context -> disconnects.incrementAndGet())
                .transportConfig()
                .serverHost(config.host())
                .serverPort(config.port())
                .socketConnectTimeout(config.connectTimeoutMs(), TimeUnit.MILLISECONDS)
                .mqttConnectTimeout(config.connectTimeoutMs(), TimeUnit.MILLISECONDS);
        if (config.tls()) {
            transport = transport.sslConfig(sslConfig(config));
        }
        MqttClientBuilder builder = transport.applyTransportConfig();
        String broker = address(config);
        return config.mqtt5()
                ? new Mqtt5PublishingClient(builder.useMqttVersion5(), config, broker, disconnects)
                : new Mqtt3PublishingClient(builder.useMqttVersion3(), config, broker, disconnects);
    }

    /** {@code mqtt://host:port} or {@code mqtts://host:port}, for messages. */
    static String address(MqttSinkConfig config) {
        return (config.tls() ? "mqtts://" : "mqtt://") + config.host() + ":" + config.port();
    }

    private static MqttClientSslConfig sslConfig(MqttSinkConfig config) {
        if (config.tlsVerify()) {
            return MqttClientSslConfig.builder().build();
        }
        return MqttClientSslConfig.builder()
                .trustManagerFactory(TrustEveryCertificate.factory())
                .hostnameVerifier((host, session) -> true)
                .build();
    }
}
