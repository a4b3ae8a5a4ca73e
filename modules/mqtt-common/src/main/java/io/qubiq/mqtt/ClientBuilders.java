package io.qubiq.mqtt;

import com.hivemq.client.mqtt.MqttClient;
import com.hivemq.client.mqtt.MqttClientBuilder;
import com.hivemq.client.mqtt.MqttClientSslConfig;
import io.qubiq.core.tls.TrustEverything;
import com.hivemq.client.mqtt.MqttClientTransportConfig;
import com.hivemq.client.mqtt.MqttClientTransportConfigBuilder;
import com.hivemq.client.mqtt.mqtt3.Mqtt3ClientBuilder;
import com.hivemq.client.mqtt.mqtt5.Mqtt5ClientBuilder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Starts a HiveMQ client the way the connector and the sink both need it: client identifier,
 * broker address, TLS from {@link BrokerSettings} (the JVM trust store and a host name check, or
 * {@link io.qubiq.core.tls.TrustEverything} with {@code tls_verify: false}), then the protocol version with the
 * CONNECT credentials. What differs stays with each side: reconnecting, listeners, session and
 * keep-alive (sent in CONNECT), flow control. Stateless.
 */
public final class ClientBuilders {

    private ClientBuilders() {
    }

    /** Identifier, address and TLS; the client's own connect timeouts. */
    public static MqttClientBuilder builder(BrokerSettings broker, String clientId) {
        return MqttClient.builder().identifier(clientId).transportConfig(transport(broker).build());
    }

    /** Identifier, address and TLS, with socket connect and CONNACK timeouts of {@code connectTimeout}. */
    public static MqttClientBuilder builder(BrokerSettings broker, String clientId, Duration connectTimeout) {
        return MqttClient.builder().identifier(clientId).transportConfig(transport(broker)
                .socketConnectTimeout(connectTimeout.toMillis(), TimeUnit.MILLISECONDS)
                .mqttConnectTimeout(connectTimeout.toMillis(), TimeUnit.MILLISECONDS)
                .build());
    }

    /** MQTT 3.1.1, with the user name and password when a user name is configured. */
    public static Mqtt3ClientBuilder mqtt3(MqttClientBuilder builder, BrokerSettings broker) {
        Mqtt3ClientBuilder versioned = builder.useMqttVersion3();
        if (broker.username().isEmpty()) {
            return versioned;
        }
        return versioned.simpleAuth().username(broker.username().get()).password(password(broker)).applySimpleAuth();
    }

    /** MQTT 5, with the user name and password when a user name is configured. */
    public static Mqtt5ClientBuilder mqtt5(MqttClientBuilder builder, BrokerSettings broker) {
        Mqtt5ClientBuilder versioned = builder.useMqttVersion5();
        if (broker.username().isEmpty()) {
            return versioned;
        }
        return versioned.simpleAuth().username(broker.username().get()).password(password(broker)).applySimpleAuth();
    }

    /** The TLS configuration for {@code tls: true}: verifying, or trusting every certificate and host name. */
    public static MqttClientSslConfig sslConfig(BrokerSettings broker) {
        if (broker.tlsVerify()) {
            return MqttClientSslConfig.builder().build();
        }
        return MqttClientSslConfig.builder()
                .trustManagerFactory(TrustEverything.factory())
                .hostnameVerifier((host, session) -> true)
                .build();
    }

    private static MqttClientTransportConfigBuilder transport(BrokerSettings broker) {
        MqttClientTransportConfigBuilder transport = MqttClientTransportConfig.builder()
                .serverHost(broker.host())
                .serverPort(broker.port());
        return broker.tls() ? transport.sslConfig(sslConfig(broker)) : transport;
    }

    private static byte[] password(BrokerSettings broker) {
        return broker.password().orElse("").getBytes(StandardCharsets.UTF_8);
    }
}
