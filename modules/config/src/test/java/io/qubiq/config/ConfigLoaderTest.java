package io.qubiq.config;

import static io.qubiq.config.SampleYaml.bind;
import static io.qubiq.config.SampleYaml.minimal;
import static io.qubiq.config.SampleYaml.problems;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qubiq.config.SampleConfig.Buffer;
import io.qubiq.config.SampleConfig.Http;
import io.qubiq.config.SampleConfig.Mqtt;
import io.qubiq.config.SampleConfig.OpcUa;
import io.qubiq.config.SampleConfig.Overflow;
import io.qubiq.config.SampleConfig.Sink;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigLoaderTest {

    private static final String FULL = """
            name: north-hall
            http:
              port: 9090
              tls_enabled: true
              keystore: /etc/qubiq/keystore.p12
              admin_password: hunter2
            buffer:
              directory: /var/lib/qubiq/buffer
              max_bytes: 10000000000
              overflow: block
              low_water_mark: 10
              high_water_mark: 20
            connections:
              press_line_2:
                type: opcua
                endpoint_url: opc.tcp://${PLC_HOST}:4840
                sampling_interval_ms: 250
                password: plc-secret
              Broker-A:
                type: mqtt
                broker_url: tcp://broker:1883
                topics: [plant/+/temp, plant/+/pressure]
                qos: 2
            sinks:
              - name: history
                url: jdbc:postgresql://db/qubiq
                headers: {X-Site: north, x_trace: "on"}
                timeout_ms: 750
            labels: [hall-1, yes, on]
            site: North hall
            trace_ratio: 1e-2
            """;

    @Test
    void bindsEveryDeclaredTypeFromAFullFile() throws ConfigException {
        SampleConfig config = bind(FULL);

        assertThat(config.name()).isEqualTo("north-hall");
        assertThat(config.http()).isEqualTo(new Http(9090, true, Optional.of(Path.of("/etc/qubiq/keystore.p12")), "hunter2"));
        assertThat(config.buffer()).isEqualTo(
                new Buffer(Path.of("/var/lib/qubiq/buffer"), 10_000_000_000L, Overflow.BLOCK, 10, 20));
        assertThat(config.connections()).containsExactly(
                Map.entry("press_line_2", new OpcUa("opc.tcp://plc.local:4840", 250, Optional.of("plc-secret"))),
                Map.entry("Broker-A", new Mqtt("tcp://broker:1883", List.of("plant/+/temp", "plant/+/pressure"), 2)));
        assertThat(config.sinks()).containsExactly(new Sink("history", "jdbc:postgresql://db/qubiq",
                Map.of("X-Site", "north", "x_trace", "on"), 750));
        assertThat(config.labels()).containsExactly("hall-1", "yes", "on");
        assertThat(config.site()).contains("North hall");
        assertThat(config.traceRatio()).isEqualTo(0.01);
    }

    @Test
    void fillsEveryLeftOutKeyFromItsDeclaredDefault() throws ConfigException {
        SampleConfig config = bind(minimal(""));

        assertThat(config.name()).isEqualTo("edge-1");
        assertThat(config.http()).isEqualTo(new Http(8080, false, Optional.empty(), "s3cret"));
        assertThat(config.buffer()).isEqualTo(new Buffer(Path.of("/var/lib/qubiq"), 67_108_864L, Overflow.DROP_OLDEST, 500, 1000));
        assertThat(config.connections()).isEmpty();
        assertThat(config.sinks()).isEmpty();
        assertThat(config.site()).isEmpty();
        assertThat(config.traceRatio()).isEqualTo(0.25);
    }

    @Test
    void expandsTheEnvironmentInsideDeclaredDefaultsToo() throws ConfigException {
        assertThat(bind(minimal(""), Map.of()).http().adminPassword()).isEqualTo("changeme");
        assertThat(bind(minimal(""), Map.of("ADMIN_PASSWORD", "from-env")).http().adminPassword()).isEqualTo("from-env");
    }

    @Test
    void variantDefaultsApplyPerVariant() throws ConfigException {
        SampleConfig config = bind(minimal("""
                connections:
                  broker:
                    type: mqtt
                    broker_url: tcp://b:1883
                """));

        assertThat(config.connections().get("broker")).isEqualTo(new Mqtt("tcp://b:1883", List.of("#"), 1));
    }

    @Test
    void treatsAnExplicitNullOrEmptyExpansionAsAbsentForOptionalKeys() throws ConfigException {
        assertThat(bind(minimal("site: ~\n")).site()).isEmpty();
        assertThat(bind(minimal("site:\n")).site()).isEmpty();
        assertThat(bind(minimal("site: ${SITE:-}\n")).site()).isEmpty();
        assertThat(bind(minimal("site: ${SITE:-}\n"), Map.of("SITE", "hall")).site()).contains("hall");
        assertThat(bind(minimal("site: \"\"\n")).site()).contains("");
    }

    @Test
    void appliesYamlMergeKeysWithExplicitKeysWinning() throws ConfigException {
        SampleConfig config = bind(minimal("""
                connections:
                  base: &mqtt {type: mqtt, broker_url: tcp://b, qos: 0}
                  second:
                    <<: *mqtt
                    qos: 2
                """));

        assertThat(config.connections().get("second")).isEqualTo(new Mqtt("tcp://b", List.of("#"), 2));
    }

    @Test
    void keepsMapKeysAsWrittenInFileOrder() throws ConfigException {
        SampleConfig config = bind(minimal("""
                sinks:
                  - name: s
                    url: u
                    headers: {Zeta: 1, alpha: 2, MixedCase_Key: 3}
                """));

        assertThat(config.sinks().get(0).headers().keySet()).containsExactly("Zeta", "alpha", "MixedCase_Key");
    }

    @Test
    void returnsImmutableListsAndMaps() throws ConfigException {
        SampleConfig config = bind(FULL);

        assertThatThrownBy(() -> config.labels().add("x")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> config.connections().clear()).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> config.sinks().get(0).headers().put("k", "v"))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void anEmptyFileMeansAllDefaultsAndReportsOnlyTheRequiredKeys() {
        assertThat(problems("")).containsExactly(
                "config/gateway.yaml:1:1: buffer: missing required key; expected a mapping with `directory`");
        assertThat(problems("# only a comment\n")).containsExactly(
                "config/gateway.yaml:1:1: buffer: missing required key; expected a mapping with `directory`");
    }

    @Test
    void bindsAnEmptySectionFromItsDefaults() throws ConfigException {
        assertThat(bind(minimal("http:\n")).http().port()).isEqualTo(8080);
        assertThat(bind(minimal("http: {}\n")).http().port()).isEqualTo(8080);
    }

    @Test
    void loadsAFileAndNamesItInProblems(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("gateway.yaml");
        Files.writeString(file, minimal("http:\n  port: 0\n"), StandardCharsets.UTF_8);

        ConfigException e = org.assertj.core.api.Assertions.catchThrowableOfType(ConfigException.class,
                () -> ConfigLoader.load(file, SampleConfig.class, Map.of()));
        assertThat(e.problems()).containsExactly(
                new ConfigProblem(file.toString(), 4, 9, "http.port", "expected an integer between 1 and 65535, got 0"));

        Files.writeString(file, minimal(""), StandardCharsets.UTF_8);
        assertThat(ConfigLoader.load(file, SampleConfig.class, Map.of()).buffer().directory()).isEqualTo(Path.of("/var/lib/qubiq"));
    }

    @Test
    void reportsAMissingFileAsOneProblemWithoutALine(@TempDir Path dir) {
        Path missing = dir.resolve("nope.yaml");

        ConfigException e = org.assertj.core.api.Assertions.catchThrowableOfType(ConfigException.class,
                () -> ConfigLoader.load(missing, SampleConfig.class, Map.of()));

        assertThat(e.problems()).hasSize(1);
        assertThat(e.problems().get(0).toString())
                .startsWith(missing + ": cannot read the configuration file: it does not exist");
    }

    @Test
    void reportsAFileThatIsNotUtf8(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("latin1.yaml");
        Files.write(file, new byte[] {'n', 'a', 'm', 'e', ':', ' ', (byte) 0xE9, '\n'});

        assertThatThrownBy(() -> ConfigLoader.load(file, SampleConfig.class, Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("not UTF-8");
    }

    @Test
    void aTextThatIsNotYamlIsUnreadableWhileATextWithWrongKeysIsNot() {
        ConfigException notYaml = org.assertj.core.api.Assertions.catchThrowableOfType(ConfigException.class,
                () -> bind("buffer: [unclosed\n"));
        ConfigException wrongKeys = org.assertj.core.api.Assertions.catchThrowableOfType(ConfigException.class,
                () -> bind(minimal("nmae: x\n")));

        assertThat(notYaml.unreadable()).isTrue();
        assertThat(wrongKeys.unreadable()).isFalse();
    }
}
