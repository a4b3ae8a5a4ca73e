package io.qubiq.sink.mqtt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.qubiq.config.ConfigException;
import io.qubiq.config.ConfigLoader;
import io.qubiq.config.ConfigProblem;
import io.qubiq.config.ConfigReference;
import io.qubiq.core.error.ConfigurationException;
import io.qubiq.mqtt.BrokerEndpoint;
import io.qubiq.mqtt.BrokerSettings;
import io.qubiq.mqtt.MqttProtocol;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class MqttSinkConfigTest {

    static final Path REPO = Path.of(System.getProperty("qubiq.repo", "../.."));

    @Test
    void sampleConfigurationParses() throws Exception {
        MqttSinkConfig config = ConfigLoader.load(Path.of("src/test/resources/mqtt-sink.yaml"), MqttSinkConfig.class,
                Map.of("MQTT_PASSWORD", "s3cret"));

        assertThat(config.endpoint().host()).isEqualTo("broker.plant.local");
        assertThat(config.endpoint().port()).isEqualTo(8883);
        assertThat(config.endpoint().tls()).isTrue();
        assertThat(config.endpoint().tlsVerify()).isTrue();
        assertThat(config.endpoint().username()).contains("gateway");
        assertThat(config.endpoint().password()).contains("s3cret");
        assertThat(config.clientId()).contains("qubiq-edge-17-cloud");
        assertThat(config.protocol()).isEqualTo(MqttProtocol.MQTT_5);
        assertThat(config.mqtt5()).isTrue();
        assertThat(config.keepAliveS()).isEqualTo(30);
        assertThat(config.connectTimeoutMs()).isEqualTo(5000);
        assertThat(config.publishTimeoutMs()).isEqualTo(15000);
        assertThat(config.maxPacketBytes()).isEmpty();
        assertThat(config.toString()).doesNotContain("s3cret").contains("password=***");
    }

    @Test
    void onlyTheHostIsRequiredAndTheRestTakesTheDocumentedDefaults() throws Exception {
        MqttSinkConfig config = ConfigLoader.parse("mqtt.yaml", "host: 10.0.0.5\n", MqttSinkConfig.class, Map.of());

        assertThat(config).isEqualTo(MqttSinkConfig.of("10.0.0.5", 1883));
        assertThat(config.effectiveClientId("cloud broker/1")).isEqualTo("qubiq-sink-cloud_broker_1");
        assertThat(new MqttSinkFactory().create("cloud", config).clientId()).isEqualTo("qubiq-sink-cloud");
    }

    @Test
    void bothProtocolVersionsAreSpelledAsForDeviceConnections() throws Exception {
        assertThat(ConfigLoader.parse("mqtt.yaml", "host: h\nprotocol: mqtt_3_1_1\n", MqttSinkConfig.class, Map.of())
                .mqtt5()).isFalse();
        assertThat(ConfigLoader.parse("mqtt.yaml", "host: h\nprotocol: mqtt_3_1_1\nmax_packet_bytes: 4096\n",
                MqttSinkConfig.class, Map.of()).maxPacketBytes()).contains(4096);
        assertThat(ConfigLoader.parse("mqtt.yaml", "host: h\nprotocol: mqtt_5\n", MqttSinkConfig.class, Map.of())
                .mqtt5()).isTrue();
    }

    @Test
    void anOutboundConnectionStillDefaultsToMqtt5AndRejectsAnUnknownSpellingAtItsKey() throws Exception {
        assertThat(ConfigLoader.parse("mqtt.yaml", "host: h\n", MqttSinkConfig.class, Map.of()).protocol())
                .isEqualTo(MqttProtocol.MQTT_5);
        assertThatThrownBy(() -> ConfigLoader.parse("mqtt.yaml", "host: h\nprotocol: mqtt5\n", MqttSinkConfig.class,
                Map.of()))
                .isInstanceOf(ConfigException.class)
                .satisfies(e -> assertThat(((ConfigException) e).problems()).singleElement().satisfies(problem -> {
                    assertThat(problem.keyPath()).isEqualTo("protocol");
                    assertThat(problem.message()).startsWith("expected one of `mqtt_3_1_1`, `mqtt_5`");
                }));
    }

    @Test
    void theSampleHandsItsAddressTlsCredentialsAndProtocolToTheSharedClientBuilder() throws Exception {
        MqttSinkConfig config = ConfigLoader.load(Path.of("src/test/resources/mqtt-sink.yaml"), MqttSinkConfig.class,
                Map.of("MQTT_PASSWORD", "s3cret"));

        assertThat(config.broker()).isEqualTo(new BrokerSettings("broker.plant.local", 8883, true, true,
                Optional.of("gateway"), Optional.of("s3cret"), MqttProtocol.MQTT_5));
        assertThat(config.broker().address()).isEqualTo("mqtts://broker.plant.local:8883");
    }

    @Test
    void theSharedChecksKeepTheirKeysAndTexts() {
        assertThatThrownBy(() -> ConfigLoader.parse("mqtt.yaml", """
                host: " "
                password: alone
                tls_verify: false
                client_id: " "
                """, MqttSinkConfig.class, Map.of()))
                .isInstanceOf(ConfigException.class)
                .satisfies(e -> assertThat(((ConfigException) e).problems())
                        .extracting(ConfigProblem::keyPath, ConfigProblem::message)
                        .containsExactly(
                                tuple("host", "must not be empty"),
                                tuple("password", "needs a username (MQTT sends no password without one)"),
                                tuple("tls_verify", "only applies with tls: true"),
                                tuple("client_id", "must not be empty; leave it out to derive one")));
    }

    @Test
    void badValuesAreReportedTogetherWithTheirKeys() {
        assertThatThrownBy(() -> ConfigLoader.parse("mqtt.yaml", """
                host: ""
                port: 70000
                protocol: "3"
                password: alone
                tls_verify: false
                client_id: " "
                max_packet_bytes: 10
                """, MqttSinkConfig.class, Map.of()))
                .isInstanceOf(ConfigException.class)
                .satisfies(e -> assertThat(((ConfigException) e).problems()).extracting(ConfigProblem::keyPath)
                        .contains("port", "protocol", "max_packet_bytes"));
        assertThatThrownBy(() -> ConfigLoader.parse("mqtt.yaml", """
                host: ""
                password: alone
                tls_verify: false
                client_id: " "
                """, MqttSinkConfig.class, Map.of()))
                .isInstanceOf(ConfigException.class)
                .satisfies(e -> assertThat(((ConfigException) e).problems()).extracting(ConfigProblem::keyPath)
                        .contains("host", "password", "tls_verify", "client_id"));
    }

    @Test
    void theSinkRefusesAnInconsistentConfigurationAsAConfigurationError() {
        MqttSinkConfig config = new MqttSinkConfig(
                new BrokerEndpoint("broker", 1883, false, true, Optional.empty(), Optional.of("x")),
                Optional.empty(), MqttProtocol.MQTT_5, 60, 1000, 1000, Optional.empty());
        assertThatThrownBy(() -> new MqttSinkFactory().create("mqtt", config))
                .isInstanceOf(ConfigurationException.class)
                .satisfies(e -> assertThat(((ConfigurationException) e).key()).isEqualTo("password"));
        assertThatThrownBy(() -> new MqttSink("mqtt", MqttSinkConfig.of("broker", 1883).withProtocol(null)))
                .isInstanceOf(ConfigurationException.class)
                .satisfies(e -> assertThat(((ConfigurationException) e).key()).isEqualTo("protocol"));
    }

    @Test
    void mqttSinkDocsListEveryKeyAsDeclared() {
        // Regenerate with -Dqubiq.config.reference.update=true
        Optional<String> mismatch = ConfigReference.verifyOrUpdate(REPO.resolve("docs/sinks/mqtt.md"),
                MqttSinkConfig.class);
        assertThat(mismatch).as("docs/sinks/mqtt.md is out of date").isEmpty();
    }
}
