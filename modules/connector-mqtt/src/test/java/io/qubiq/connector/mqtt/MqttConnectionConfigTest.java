package io.qubiq.connector.mqtt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.qubiq.config.ConfigException;
import io.qubiq.config.ConfigLoader;
import io.qubiq.config.ConfigProblem;
import io.qubiq.config.ConfigReference;
import io.qubiq.core.tag.DataType;
import io.qubiq.mqtt.BrokerEndpoint;
import io.qubiq.mqtt.BrokerSettings;
import io.qubiq.mqtt.MqttProtocol;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class MqttConnectionConfigTest {

    static final Path REPO = Path.of(System.getProperty("qubiq.repo", "../.."));

    @Test
    void sampleConfigurationParses() throws Exception {
        MqttConnectionConfig config = ConfigLoader.load(Path.of("src/test/resources/sample-mqtt.yaml"),
                MqttConnectionConfig.class, Map.of("BROKER_PASSWORD", "pw"));
        assertThat(config.endpoint().host()).isEqualTo("broker.plant.local");
        assertThat(config.endpoint().port()).isEqualTo(8883);
        assertThat(config.endpoint().tls()).isTrue();
        assertThat(config.endpoint().tlsVerify()).isTrue();
        assertThat(config.endpoint().password()).contains("pw");
        assertThat(config.protocol()).isEqualTo(MqttProtocol.MQTT_5);
        assertThat(config.cleanSession()).isFalse();
        assertThat(config.sessionExpiryS()).isEqualTo(604800);
        assertThat(config.subscriptions()).hasSize(3);
        MqttSubscriptionConfig telemetry = config.subscriptions().get(1);
        assertThat(telemetry.payload()).isEqualTo(PayloadFormat.JSON);
        assertThat(telemetry.dataType()).isEqualTo(DataType.FLOAT32);
        assertThat(telemetry.valuePath()).contains("$.data.pressure");
        assertThat(telemetry.qualityPath()).contains("$.status");
        assertThat(config.subscriptions().get(2).qos()).isZero();
        assertThat(config.writableTags()).hasSize(2);
        assertThat(config.writableTags().get(1).resolvedCommandTopic()).isEqualTo("cmd/hall1/oven/mode");
        assertThat(config.effectiveClientId("gw1", "broker1")).isEqualTo("qubiq-gw1-broker1");
    }

    @Test
    void leftOutKeysTakeTheDocumentedDefaults() throws Exception {
        MqttConnectionConfig config = ConfigLoader.parse("mqtt.yaml", """
                host: 127.0.0.1
                subscriptions:
                  - topic: a/b
                    tag: a/b
                """, MqttConnectionConfig.class, Map.of());
        assertThat(config).isEqualTo(MqttConnectionConfig.of("127.0.0.1", 1883,
                List.of(MqttSubscriptionConfig.plain("a/b", "a/b", DataType.FLOAT64))));
    }

    @Test
    void badFiltersTemplatesPathsAndCommandTopicsAreReportedTogetherWithTheirKeyPaths() {
        assertThatThrownBy(() -> ConfigLoader.parse("mqtt.yaml", """
                host: 127.0.0.1
                subscriptions:
                  - topic: a/#/b
                    tag: a/b
                  - topic: plant/+/temp
                    tag: plant/temp
                  - topic: plant/+/level
                    tag: plant/{2}/level
                  - topic: x/json
                    tag: x/json
                    payload: json
                  - topic: x/plain
                    tag: x/plain
                    value_path: $.v
                  - topic: x/path
                    tag: x/path
                    payload: json
                    value_path: $..v
                writable_tags:
                  - tag: w/a
                    command_topic: cmd/+/a
                """, MqttConnectionConfig.class, Map.of()))
                .isInstanceOf(ConfigException.class)
                .satisfies(e -> assertThat(((ConfigException) e).problems()).extracting(ConfigProblem::keyPath)
                        .contains("subscriptions[0].topic", "subscriptions[1].tag", "subscriptions[2].tag",
                                "subscriptions[3].value_path", "subscriptions[4].value_path",
                                "subscriptions[5].value_path", "writable_tags[0].command_topic"));
    }

    @Test
    void inconsistentConnectionKeysAreReportedTogether() {
        assertThatThrownBy(() -> ConfigLoader.parse("mqtt.yaml", """
                host: 127.0.0.1
                password: secret
                protocol: mqtt_5
                clean_session: false
                session_expiry_s: 0
                reconnect_initial_ms: 5000
                reconnect_max_ms: 1000
                subscriptions: []
                writable_tags:
                  - tag: w/a
                    command_topic: cmd/a
                  - tag: w/a
                    command_topic: cmd/b
                """, MqttConnectionConfig.class, Map.of()))
                .isInstanceOf(ConfigException.class)
                .satisfies(e -> assertThat(((ConfigException) e).problems()).extracting(ConfigProblem::keyPath)
                        .contains("password", "reconnect_max_ms", "session_expiry_s", "writable_tags[1].tag"));
    }

    @Test
    void protocolKeepsItsSpellingsAndADeviceConnectionStillDefaultsToMqtt311() throws Exception {
        String connection = "host: h\nsubscriptions: []\n";
        assertThat(ConfigLoader.parse("mqtt.yaml", connection, MqttConnectionConfig.class, Map.of()).protocol())
                .isEqualTo(MqttProtocol.MQTT_3_1_1);
        assertThat(ConfigLoader.parse("mqtt.yaml", connection + "protocol: mqtt_3_1_1\n", MqttConnectionConfig.class,
                Map.of()).protocol()).isEqualTo(MqttProtocol.MQTT_3_1_1);
        assertThat(ConfigLoader.parse("mqtt.yaml", connection + "protocol: mqtt_5\n", MqttConnectionConfig.class,
                Map.of()).protocol()).isEqualTo(MqttProtocol.MQTT_5);
        assertThatThrownBy(() -> ConfigLoader.parse("mqtt.yaml", connection + "protocol: mqtt5\n",
                MqttConnectionConfig.class, Map.of()))
                .isInstanceOf(ConfigException.class)
                .satisfies(e -> assertThat(((ConfigException) e).problems()).singleElement().satisfies(problem -> {
                    assertThat(problem.keyPath()).isEqualTo("protocol");
                    assertThat(problem.message()).startsWith("expected one of `mqtt_3_1_1`, `mqtt_5`");
                }));
    }

    @Test
    void theSampleHandsItsAddressTlsCredentialsAndProtocolToTheSharedClientBuilder() throws Exception {
        MqttConnectionConfig config = ConfigLoader.load(Path.of("src/test/resources/sample-mqtt.yaml"),
                MqttConnectionConfig.class, Map.of("BROKER_PASSWORD", "pw"));
        assertThat(config.broker()).isEqualTo(new BrokerSettings("broker.plant.local", 8883, true, true,
                Optional.of("gateway"), Optional.of("pw"), MqttProtocol.MQTT_5));
    }

    @Test
    void theSharedChecksKeepTheirKeysAndTexts() {
        assertThatThrownBy(() -> ConfigLoader.parse("mqtt.yaml", """
                host: " "
                password: alone
                client_id: " "
                subscriptions: []
                """, MqttConnectionConfig.class, Map.of()))
                .isInstanceOf(ConfigException.class)
                .satisfies(e -> assertThat(((ConfigException) e).problems())
                        .extracting(ConfigProblem::keyPath, ConfigProblem::message)
                        .containsExactly(
                                tuple("host", "must not be empty"),
                                tuple("password",
                                        "needs a username (MQTT sends no password without one)"),
                                tuple("client_id",
                                        "must not be empty; leave it out to derive one")));
    }

    @Test
    void passwordNeverAppearsInToString() {
        MqttConnectionConfig config = new MqttConnectionConfig(
                new BrokerEndpoint("h", 1883, false, true, Optional.of("u"), Optional.of("hunter2")),
                Optional.empty(), MqttProtocol.MQTT_5, true, 0, 30, 1000, 2000, 5000,
                List.of(), List.of(), MqttConnectionConfig.DEFAULT_MAX_DYNAMIC_TAGS);
        assertThat(config.toString()).doesNotContain("hunter2").contains("***");
    }

    @Test
    void connectorDocsListEveryKeyAsDeclared() {
        // Regenerate with -Dqubiq.config.reference.update=true
        Optional<String> mismatch = ConfigReference.verifyOrUpdate(REPO.resolve("docs/connectors/mqtt.md"),
                MqttConnectionConfig.class);
        assertThat(mismatch).as("docs/connectors/mqtt.md is out of date").isEmpty();
    }
}
