package io.qubiq.connector.opcua;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qubiq.config.ConfigException;
import io.qubiq.config.ConfigLoader;
import io.qubiq.config.ConfigProblem;
import io.qubiq.config.ConfigReference;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class OpcUaConnectionConfigTest {

    static final Path REPO = Path.of(System.getProperty("qubiq.repo", "../.."));

    @Test
    void sampleConfigurationParses() throws Exception {
        OpcUaConnectionConfig config = ConfigLoader.load(Path.of("src/test/resources/sample-opcua.yaml"),
                OpcUaConnectionConfig.class, Map.of("PLC1_PASSWORD", "pw"));
        assertThat(config.securityPolicy()).isEqualTo(SecurityPolicyName.BASIC256SHA256);
        assertThat(config.securityMode()).isEqualTo(SecurityModeName.SIGN_AND_ENCRYPT);
        assertThat(config.identity()).isEqualTo(new OpcUaIdentity.Username("gateway", "pw"));
        assertThat(config.staleAfterMs()).isEqualTo(300_000);
        assertThat(config.tags()).hasSize(4);
        OpcUaTagConfig temperature = config.tags().get(0);
        assertThat(temperature.deadbandAbsolute()).contains(0.5);
        assertThat(temperature.scale()).contains(new LinearScale(0, 27648, 0, 400));
        assertThat(temperature.engineeringUnit()).contains("degC");
        assertThat(config.tags().get(1).writable()).isTrue();
        assertThat(config.tags().get(2).writable()).isFalse();
        assertThat(config.tags().get(2).samplingIntervalMs()).isEmpty();
        assertThat(config.tagDefaults().samplingIntervalMs()).isEqualTo(50);
        assertThat(config.tags().get(3).tagPath().value()).isEqualTo("Line1/Pump_Speed");
    }

    @Test
    void aTagWithoutSettingsTakesTheConnectionDefaultsAndItsOwnSettingsWin() throws Exception {
        OpcUaConnectionConfig config = ConfigLoader.load(Path.of("src/test/resources/sample-opcua.yaml"),
                OpcUaConnectionConfig.class, Map.of("PLC1_PASSWORD", "pw"));
        MonitoringRequest own = config.monitoring(config.tags().get(0));
        assertThat(own).isEqualTo(new MonitoringRequest(100, 10, Optional.of(0.5), Optional.empty()));
        MonitoringRequest inherited = config.monitoring(config.tags().get(2));
        // 50 ms sampling, 250 ms publishing: a queue for one second (more than two publishing intervals) holds 20
        assertThat(inherited).isEqualTo(new MonitoringRequest(50, 20, Optional.empty(), Optional.of(0.5)));
    }

    @Test
    void theDefaultQueueHoldsTwoPublishingIntervalsOrOneSecondOfSamplesWhicheverIsMore() {
        OpcUaConnectionConfig defaults = OpcUaConnectionConfig.of("opc.tcp://127.0.0.1:4840",
                java.util.List.of(OpcUaTagConfig.of("a/b", "ns=2;s=A")));
        assertThat(defaults.monitoring(defaults.tags().get(0)))
                .isEqualTo(new MonitoringRequest(100, 10, Optional.empty(), Optional.empty()));
        assertThat(MonitoringRequest.coveringQueueSize(-1, 500)).isEqualTo(2);
        assertThat(MonitoringRequest.coveringQueueSize(0, 500)).isEqualTo(100);
        assertThat(MonitoringRequest.coveringQueueSize(1000, 500)).isEqualTo(1);
        assertThat(MonitoringRequest.coveringQueueSize(1, 3_600_000)).isEqualTo(10_000);
        // a 100 ms subscription: two intervals would be 2 samples, lost whenever a publish runs 100 ms late
        assertThat(MonitoringRequest.coveringQueueSize(100, 100)).isEqualTo(10);
        assertThat(MonitoringRequest.coveringQueueSize(100, 2_000)).isEqualTo(40);
    }

    @Test
    void aPlainNodeIdIsATagWhosePathIsDerivedFromTheNodeId() throws Exception {
        OpcUaConnectionConfig config = ConfigLoader.parse("plc.yaml", """
                endpoint_url: opc.tcp://127.0.0.1:4840
                tags:
                  - ns=2;s=Line1.Speed
                  - "ns=2;s=/Line 2//Oven/"
                  - ns=3;i=1001
                  - path: explicit/tag
                    node_id: ns=2;s=X
                """, OpcUaConnectionConfig.class, Map.of());
        assertThat(config.tags()).extracting(tag -> tag.tagPath().value())
                .containsExactly("Line1.Speed", "Line_2/Oven", "ns3_i1001", "explicit/tag");
        assertThat(config.tags().get(0).samplingIntervalMs()).isEmpty();
        assertThat(config.tags().get(0).nodeId()).isEqualTo("ns=2;s=Line1.Speed");
    }

    @Test
    void invalidCompactTagsAndDefaultsAreReportedWithTheirKeyAndValue() {
        assertThatThrownBy(() -> ConfigLoader.parse("plc.yaml", """
                endpoint_url: opc.tcp://127.0.0.1:4840
                tag_defaults:
                  queue_size: 0
                tags:
                  - Line1.Speed
                  - ns=2;s=
                  - ns=2;s=A.B
                  - path: A.B
                    node_id: ns=3;s=A.B
                  - [ns=2;s=C]
                """, OpcUaConnectionConfig.class, Map.of()))
                .isInstanceOf(ConfigException.class)
                .satisfies(e -> {
                    var problems = ((ConfigException) e).problems();
                    assertThat(problems).extracting(ConfigProblem::keyPath).contains("tag_defaults.queue_size",
                            "tags[0].node_id", "tags[1].path", "tags[4]");
                    assertThat(problems).filteredOn(p -> p.keyPath().equals("tags[0].node_id"))
                            .extracting(ConfigProblem::message).first().asString().contains("\"Line1.Speed\"");
                    assertThat(problems).filteredOn(p -> p.keyPath().equals("tags[1].path"))
                            .extracting(ConfigProblem::message).first().asString().contains("ns=2;s=");
                });
    }

    @Test
    void writeLimitsAboveEachOtherOrOnATagThatIsNotWritableAreReportedByKey() {
        assertThatThrownBy(() -> ConfigLoader.parse("plc.yaml", """
                endpoint_url: opc.tcp://127.0.0.1:4840
                tags:
                  - {path: a, node_id: "ns=2;s=A", writable: true, write_min: 10, write_max: 5}
                  - {path: b, node_id: "ns=2;s=B", write_max: 5}
                """, OpcUaConnectionConfig.class, Map.of()))
                .isInstanceOf(ConfigException.class)
                .satisfies(e -> assertThat(((ConfigException) e).problems())
                        .extracting(p -> p.keyPath() + ": " + p.message())
                        .anySatisfy(line -> assertThat(line).startsWith("tags[0].write_min")
                                .contains("the minimum 10 is above the maximum 5"))
                        .anySatisfy(line -> assertThat(line).startsWith("tags[1].write_max")
                                .contains("not writable")));
    }

    @Test
    void twoTagsDerivingTheSamePathAreReportedWithTheNodeId() {
        assertThatThrownBy(() -> ConfigLoader.parse("plc.yaml", """
                endpoint_url: opc.tcp://127.0.0.1:4840
                tags:
                  - ns=2;s=A.B
                  - ns=3;s=A.B
                """, OpcUaConnectionConfig.class, Map.of()))
                .isInstanceOf(ConfigException.class)
                .satisfies(e -> assertThat(((ConfigException) e).problems()).anySatisfy(p -> {
                    assertThat(p.keyPath()).isEqualTo("tags[1].path");
                    assertThat(p.message()).contains("\"A.B\" is already used by tags[0]", "ns=3;s=A.B");
                }));
    }

    @Test
    void leftOutKeysTakeTheDocumentedDefaults() throws Exception {
        OpcUaConnectionConfig config = ConfigLoader.parse("plc.yaml", """
                endpoint_url: opc.tcp://127.0.0.1:4840
                tags: []
                """, OpcUaConnectionConfig.class, Map.of());
        assertThat(config).isEqualTo(OpcUaConnectionConfig.of("opc.tcp://127.0.0.1:4840", java.util.List.of()));
    }

    @Test
    void inconsistentSecurityBackoffAndDuplicateTagPathsAreReportedTogether() {
        assertThatThrownBy(() -> ConfigLoader.parse("plc.yaml", """
                endpoint_url: opc.tcp://127.0.0.1:4840
                security_policy: basic256sha256
                security_mode: none
                reconnect_initial_ms: 5000
                reconnect_max_ms: 1000
                tags:
                  - path: a/b
                    node_id: ns=2;s=A
                  - path: a/b
                    node_id: ns=2;s=B
                """, OpcUaConnectionConfig.class, Map.of()))
                .isInstanceOf(ConfigException.class)
                .satisfies(e -> assertThat(((ConfigException) e).problems()).extracting(ConfigProblem::keyPath)
                        .contains("security_mode", "reconnect_max_ms", "tags[1].path"));
    }

    @Test
    void badNodeIdsTagPathsAndDoubleDeadbandsAreReportedPerTag() {
        assertThatThrownBy(() -> ConfigLoader.parse("plc.yaml", """
                endpoint_url: opc.tcp://127.0.0.1:4840
                tags:
                  - path: a/b
                    node_id: ns=2;s=A
                    deadband_absolute: 1.0
                    deadband_percent: 2.0
                  - path: a//c
                    node_id: not-a-node
                  - path: a/d
                    node_id: ns=2;s=D
                    scale: {raw_low: 0, raw_high: 0, eng_low: 0, eng_high: 100}
                """, OpcUaConnectionConfig.class, Map.of()))
                .isInstanceOf(ConfigException.class)
                .satisfies(e -> assertThat(((ConfigException) e).problems()).extracting(ConfigProblem::keyPath)
                        .contains("tags[0].deadband_percent", "tags[1].path", "tags[1].node_id",
                                "tags[2].scale.raw_high"));
    }

    @Test
    void passwordNeverAppearsInProblemsOrToString() {
        OpcUaIdentity.Username identity = new OpcUaIdentity.Username("gateway", "hunter2");
        assertThat(identity.toString()).doesNotContain("hunter2");
    }

    @Test
    void connectorDocsListEveryKeyAsDeclared() {
        // Regenerate with -Dqubiq.config.reference.update=true
        Optional<String> mismatch = ConfigReference.verifyOrUpdate(REPO.resolve("docs/connectors/opcua.md"),
                OpcUaConnectionConfig.class);
        assertThat(mismatch).as("docs/connectors/opcua.md is out of date").isEmpty();
    }
}
