package io.qubiq.app.devices;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.qubiq.app.config.DeviceConfig;
import io.qubiq.app.config.GatewayConfig;
import io.qubiq.app.config.HeapRecommendation;
import io.qubiq.config.ConfigException;
import io.qubiq.config.ConfigLoader;
import io.qubiq.connector.mqtt.MqttConnector;
import io.qubiq.connector.opcua.OpcUaConnector;
import io.qubiq.core.config.Variant;
import io.qubiq.core.connector.DeviceKind;
import io.qubiq.core.event.EventPublisher;
import io.qubiq.core.tag.TagPath;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The registry of device kinds agrees with the configuration's section variants, and each kind builds its connector. */
class DeviceKindsTest {

    private static final Path REPO = Path.of(System.getProperty("qubiq.repo", ".."));

    private static final String SAMPLE = """
            devices:
              plc1:
                opcua:
                  endpoint_url: opc.tcp://127.0.0.1:4840
                  tags:
                    - path: line1/packer/count
                      node_id: ns=2;s=Packer.Count
                    - ns=2;s=Tank.Level
              line-broker:
                mqtt:
                  host: 127.0.0.1
                  subscriptions:
                    - topic: line1/sensors/+/temperature
                      tag: line1/{1}/temperature
                      payload: json
                      value_path: value
                      data_type: float64
                    - topic: line1/oven/setpoint
                      tag: line1/oven/setpoint
                  writable_tags:
                    - tag: line1/oven/setpoint
                      command_topic: line1/oven/setpoint/set
            """;

    @TempDir
    Path dataDir;

    @Test
    void everyKindHasItsSectionAndEverySectionItsKind() {
        assertThat(DeviceKinds.names()).containsExactly("opcua", "mqtt");
        assertThat(Arrays.stream(DeviceConfig.class.getPermittedSubclasses())
                .map(variant -> variant.getAnnotation(Variant.class).value()))
                .containsExactlyInAnyOrderElementsOf(DeviceKinds.names());
        for (DeviceKind<?> kind : DeviceKinds.all()) {
            assertThat(kind.configType().getRecordComponents()[0].getName()).as(kind.name()).isEqualTo(kind.name());
        }
    }

    @Test
    void eachKindNamesItsDocumentationAndItExists() {
        for (DeviceKind<?> kind : DeviceKinds.all()) {
            assertThat(REPO.resolve(kind.docs())).as(kind.name()).isRegularFile();
            assertThat(kind.docs()).contains(kind.name());
        }
    }

    @Test
    void theSectionOfEachShippedDeviceConnectionSelectsItsKind() throws Exception {
        GatewayConfig config = ConfigLoader.load(REPO.resolve("config/pipelines-example.yaml"), GatewayConfig.class,
                Map.of());
        Map<String, String> kinds = new LinkedHashMap<>();
        config.devices().forEach((id, device) -> kinds.put(id, DeviceKinds.of(device).name()));

        assertThat(kinds).containsExactly(Map.entry("plc1", "opcua"), Map.entry("line-broker", "mqtt"));
    }

    @Test
    void eachKindBuildsItsConnectorWithTheTagsItsConfigurationDeclares() throws Exception {
        GatewayConfig config = ConfigLoader.parse("gateway.yaml", SAMPLE, GatewayConfig.class, Map.of());

        Map<String, DeviceConnections.Entry> entries = DeviceKinds.entries(config.devices(),
                new DeviceKind.Context("gw", dataDir, Clock.systemUTC(), EventPublisher.none()));

        DeviceConnections.Entry plc = entries.get("plc1");
        DeviceConnections.Entry broker = entries.get("line-broker");
        try {
            assertThat(plc.connector()).isInstanceOf(OpcUaConnector.class);
            assertThat(plc.connector().id()).isEqualTo("plc1");
            assertThat(plc.type()).isEqualTo("opcua");
            assertThat(plc.tags()).containsExactly(TagPath.of("line1/packer/count"), TagPath.of("Tank.Level"));
            assertThat(plc.triggersPipelines()).isFalse();

            assertThat(broker.connector()).isInstanceOf(MqttConnector.class);
            assertThat(broker.connector().id()).isEqualTo("line-broker");
            assertThat(broker.type()).isEqualTo("mqtt");
            assertThat(broker.tags()).containsExactly(TagPath.of("line1/oven/setpoint"));
            assertThat(broker.triggersPipelines()).isTrue();
        } finally {
            entries.values().forEach(entry -> entry.connector().close());
        }
    }

    @Test
    void eachKindEstimatesItsTagsForTheHeapRecommendation() throws Exception {
        GatewayConfig config = ConfigLoader.parse("gateway.yaml", SAMPLE, GatewayConfig.class, Map.of());

        assertThat(DeviceKinds.tagEstimate(config.devices().get("plc1"))).isEqualTo(new DeviceKind.TagEstimate(2, 0));
        assertThat(DeviceKinds.tagEstimate(config.devices().get("line-broker")))
                .isEqualTo(new DeviceKind.TagEstimate(1, 1));
        assertThat(HeapRecommendation.of(config).reasoning())
                .anySatisfy(line -> assertThat(line).contains("103 tags (2 OPC UA, 101 MQTT, of which 1 wildcard"));
    }

    @Test
    void anUnknownSectionIsAConfigurationProblemNamingTheFileTheKeyAndTheKnownKinds() {
        String yaml = "devices:\n  plc1:\n    modbus: {host: plc1}\n";

        ConfigException e = catchThrowableOfType(ConfigException.class,
                () -> ConfigLoader.parse("gateway.yaml", yaml, GatewayConfig.class, Map.of()));

        assertThat(e.getMessage()).contains(
                "gateway.yaml:2:3: devices.plc1: missing a section; expected exactly one of `mqtt`, `opcua`",
                "gateway.yaml:3:5: devices.plc1.modbus: unknown key; expected a section `mqtt`, `opcua`");
    }

    @Test
    void twoProtocolSectionsInOneConnectionAreAProblem() {
        String yaml = """
                devices:
                  plc1:
                    opcua: {endpoint_url: "opc.tcp://plc1:4840", tags: ["ns=2;s=A"]}
                    mqtt: {host: broker, subscriptions: [{topic: a, tag: a}]}
                """;

        ConfigException e = catchThrowableOfType(ConfigException.class,
                () -> ConfigLoader.parse("gateway.yaml", yaml, GatewayConfig.class, Map.of()));

        assertThat(e.getMessage()).contains("devices.plc1.mqtt: only one of `mqtt`, `opcua` may be set here, and"
                + " `opcua` already is");
    }

    @Test
    void aTagDeclaredByTwoConnectionsIsAProblemNamingBoth() {
        String yaml = """
                devices:
                  plc1:
                    opcua: {endpoint_url: "opc.tcp://plc1:4840", tags: [{path: line1/setpoint, node_id: "ns=2;s=A"}]}
                  broker:
                    mqtt:
                      host: broker
                      subscriptions: [{topic: a, tag: a}]
                      writable_tags: [{tag: line1/setpoint, command_topic: line1/setpoint/set}]
                """;

        ConfigException e = catchThrowableOfType(ConfigException.class,
                () -> ConfigLoader.parse("gateway.yaml", yaml, GatewayConfig.class, Map.of()));

        assertThat(e.getMessage()).contains("devices.broker: tag line1/setpoint is already declared by device"
                + " connection plc1; a tag has one source");
    }

    @Test
    void aDisabledConnectionBuildsNoEntryAndMayNotTriggerAPipeline() throws Exception {
        String devices = """
                devices:
                  broker:
                    enabled: false
                    mqtt: {host: 127.0.0.1, subscriptions: [{topic: a, tag: a}]}
                  plc1:
                    opcua: {endpoint_url: "opc.tcp://plc1:4840", tags: ["ns=2;s=A"]}
                """;
        GatewayConfig config = ConfigLoader.parse("gateway.yaml", devices, GatewayConfig.class, Map.of());
        assertThat(config.devices().get("broker").enabled()).isFalse();
        assertThat(DeviceKinds.entries(config.devices(), new io.qubiq.core.connector.DeviceKind.Context("g",
                java.nio.file.Path.of("data"), java.time.Clock.systemUTC(), io.qubiq.core.event.EventPublisher.none())))
                .containsOnlyKeys("plc1");

        ConfigException e = catchThrowableOfType(ConfigException.class, () -> ConfigLoader.parse("gateway.yaml",
                devices + """
                        outbound:
                          archive:
                            mongodb: {connection_string: "mongodb://127.0.0.1:27017", database: plant}
                        pipelines:
                          p:
                            trigger: {mqtt: {connection: broker, topic: a}}
                            outputs:
                              - connection: archive
                                mongodb: {collection: batches, document: {body: "payload"}}
                        """, GatewayConfig.class, Map.of()));

        assertThat(e.getMessage()).contains("pipelines.p.trigger.mqtt.connection: \"broker\" is disabled");
    }

    @Test
    void onlyAKindThatTriggersPipelinesMayBeNamedByAMessageTrigger() {
        String yaml = """
                devices:
                  plc1:
                    opcua: {endpoint_url: "opc.tcp://plc1:4840", tags: ["ns=2;s=A"]}
                outbound:
                  archive:
                    mongodb: {connection_string: "mongodb://127.0.0.1:27017", database: plant}
                pipelines:
                  p:
                    trigger: {mqtt: {connection: plc1, topic: a}}
                    outputs:
                      - connection: archive
                        mongodb: {collection: batches, document: {body: "payload"}}
                """;

        ConfigException e = catchThrowableOfType(ConfigException.class,
                () -> ConfigLoader.parse("gateway.yaml", yaml, GatewayConfig.class, Map.of()));

        assertThat(e.getMessage()).contains("pipelines.p.trigger.mqtt.connection: \"plc1\" is not an MQTT connection"
                + " under devices");
        assertThat(DeviceKinds.all().stream().filter(DeviceKind::triggersPipelines).map(DeviceKind::name).toList())
                .isEqualTo(List.of("mqtt"));
    }
}
