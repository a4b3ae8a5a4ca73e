package io.qubiq.mqtt;

import static org.assertj.core.api.Assertions.assertThat;

import com.hivemq.client.mqtt.MqttClientSslConfig;
import com.hivemq.client.mqtt.MqttClientTransportConfig;
import com.hivemq.client.mqtt.MqttVersion;
import com.hivemq.client.mqtt.mqtt3.Mqtt3ClientConfig;
import com.hivemq.client.mqtt.mqtt5.Mqtt5ClientConfig;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ClientBuildersTest {

    private static BrokerSettings plain() {
        return new BrokerSettings("broker.plant.local", 1884, false, true, Optional.empty(), Optional.empty(),
                MqttProtocol.MQTT_5);
    }

    private static BrokerSettings tls(boolean verify) {
        return new BrokerSettings("broker.plant.local", 8883, true, verify, Optional.empty(), Optional.empty(),
                MqttProtocol.MQTT_5);
    }

    private static BrokerSettings withUser(String user, Optional<String> password) {
        return new BrokerSettings("h", 1883, false, true, Optional.of(user), password, MqttProtocol.MQTT_3_1_1);
    }

    private static String text(ByteBuffer bytes) {
        return StandardCharsets.UTF_8.decode(bytes.duplicate()).toString();
    }

    @Test
    void theClientGetsTheIdentifierAndTheBrokerAddressAndNoTlsUnlessAsked() {
        Mqtt5ClientConfig config = ClientBuilders.mqtt5(ClientBuilders.builder(plain(), "qubiq-gw-line1"), plain())
                .build().getConfig();

        assertThat(config.getClientIdentifier()).hasValueSatisfying(id -> assertThat(id).hasToString("qubiq-gw-line1"));
        assertThat(config.getServerHost()).isEqualTo("broker.plant.local");
        assertThat(config.getServerPort()).isEqualTo(1884);
        assertThat(config.getSslConfig()).isEmpty();
        assertThat(config.getSimpleAuth()).isEmpty();
    }

    @Test
    void withoutAConnectTimeoutTheClientKeepsItsOwnDefaults() {
        MqttClientTransportConfig transport = ClientBuilders.builder(plain(), "c").useMqttVersion5().build().getConfig().getTransportConfig();

        assertThat(transport.getSocketConnectTimeoutMs()).isEqualTo(MqttClientTransportConfig.DEFAULT_SOCKET_CONNECT_TIMEOUT_MS);
        assertThat(transport.getMqttConnectTimeoutMs()).isEqualTo(MqttClientTransportConfig.DEFAULT_MQTT_CONNECT_TIMEOUT_MS);
    }

    @Test
    void aConnectTimeoutBoundsBothTheSocketConnectAndTheConnack() {
        MqttClientTransportConfig transport = ClientBuilders.builder(tls(true), "c", Duration.ofMillis(2500))
                .useMqttVersion5().build().getConfig().getTransportConfig();

        assertThat(transport.getSocketConnectTimeoutMs()).isEqualTo(2500);
        assertThat(transport.getMqttConnectTimeoutMs()).isEqualTo(2500);
        assertThat(transport.getServerAddress().getHostString()).isEqualTo("broker.plant.local");
        assertThat(transport.getServerAddress().getPort()).isEqualTo(8883);
        assertThat(transport.getSslConfig()).isPresent();
    }

    @Test
    void verifyingTlsUsesTheJvmTrustStoreAndTheClientsHostNameCheck() {
        MqttClientSslConfig ssl = ClientBuilders.builder(tls(true), "c").useMqttVersion5().build().getConfig().getSslConfig().orElseThrow();

        assertThat(ssl.getTrustManagerFactory()).isEmpty();
        assertThat(ssl.getHostnameVerifier()).isEmpty();
    }

    @Test
    void tlsVerifyFalseTrustsEveryCertificateAndEveryHostName() {
        MqttClientSslConfig ssl = ClientBuilders.builder(tls(false), "c").useMqttVersion5().build().getConfig().getSslConfig().orElseThrow();

        assertThat(ssl.getTrustManagerFactory()).hasValueSatisfying(factory ->
                assertThat(factory.getAlgorithm()).isEqualTo("TrustEverything"));
        assertThat(ssl.getHostnameVerifier()).hasValueSatisfying(verifier ->
                assertThat(verifier.verify("some-other-host", null)).isTrue());
    }

    @Test
    void theProtocolVersionIsTheOneAskedFor() {
        assertThat(ClientBuilders.mqtt3(ClientBuilders.builder(plain(), "c"), plain()).build().getConfig()
                .getMqttVersion()).isEqualTo(MqttVersion.MQTT_3_1_1);
        assertThat(ClientBuilders.mqtt5(ClientBuilders.builder(plain(), "c"), plain()).build().getConfig()
                .getMqttVersion()).isEqualTo(MqttVersion.MQTT_5_0);
    }

    @Test
    void aUserNameAndItsPasswordGoIntoConnectOverEitherVersion() {
        BrokerSettings broker = withUser("gateway", Optional.of("s3cret-ü"));
        Mqtt3ClientConfig v3 = ClientBuilders.mqtt3(ClientBuilders.builder(broker, "c"), broker).build().getConfig();
        Mqtt5ClientConfig v5 = ClientBuilders.mqtt5(ClientBuilders.builder(broker, "c"), broker).build().getConfig();

        assertThat(v3.getSimpleAuth()).hasValueSatisfying(auth -> {
            assertThat(auth.getUsername()).hasToString("gateway");
            assertThat(auth.getPassword().map(ClientBuildersTest::text)).contains("s3cret-ü");
        });
        assertThat(v5.getSimpleAuth()).hasValueSatisfying(auth -> {
            assertThat(auth.getUsername().map(Object::toString)).contains("gateway");
            assertThat(auth.getPassword().map(ClientBuildersTest::text)).contains("s3cret-ü");
        });
    }

    @Test
    void aUserNameWithoutPasswordSendsAnEmptyPassword() {
        BrokerSettings broker = withUser("reader", Optional.empty());

        assertThat(ClientBuilders.mqtt3(ClientBuilders.builder(broker, "c"), broker).build().getConfig().getSimpleAuth())
                .hasValueSatisfying(auth -> assertThat(auth.getPassword().map(ClientBuildersTest::text)).contains(""));
    }
}
