package io.qubiq.config;

import static io.qubiq.config.SampleYaml.minimal;
import static org.assertj.core.api.Assertions.assertThat;

import io.qubiq.core.config.Default;
import io.qubiq.core.config.Doc;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The configuration as the API shows it: every key, secrets masked, and where the environment gave a value. */
class ConfigTreeTest {

    private static final String YAML = minimal("""
            connections:
              plc:
                type: opcua
                endpoint_url: opc.tcp://${PLC_HOST}:4840
                password: hunter2
            sinks:
              - name: history
                url: ${SINK_URL}
            """);
    private static final Map<String, String> ENV = Map.of("PLC_HOST", "plc.local", "SINK_URL",
            "postgres://admin:from-env@db", "ADMIN_PASSWORD", "env-admin");

    @Test
    void everyKeyIsThereWithItsDefaultAndSecretsAreMasked() throws ConfigException {
        SampleConfig config = ConfigLoader.parse("gateway.yaml", YAML, SampleConfig.class, ENV);

        Map<String, Object> tree = ConfigTree.masked(config);

        assertThat(tree.keySet()).containsExactly("name", "http", "buffer", "connections", "sinks", "labels", "trace_ratio");
        assertThat(tree.get("http")).isEqualTo(Map.of("port", 8080, "tls_enabled", false, "admin_password", "***"));
        assertThat(tree.get("connections")).isEqualTo(Map.of("plc", Map.of("type", "opcua",
                "endpoint_url", "opc.tcp://plc.local:4840", "sampling_interval_ms", 1000L, "password", "***")));
        assertThat(tree.get("sinks")).isEqualTo(List.of(Map.of("name", "history", "url", "***", "headers", Map.of(),
                "timeout_ms", 5000)));
        assertThat(tree.toString()).doesNotContain("hunter2", "from-env", "env-admin");
    }

    @Test
    void theBindingNamesEveryKeyWhoseValueCameFromTheEnvironment() throws ConfigException {
        BoundConfig<SampleConfig> bound = ConfigLoader.bind("gateway.yaml", YAML, SampleConfig.class, ENV);

        assertThat(bound.fromEnvironment()).containsEntry("connections.plc.endpoint_url", List.of("PLC_HOST"))
                .containsEntry("sinks[0].url", List.of("SINK_URL"))
                .containsEntry("http.admin_password", List.of("ADMIN_PASSWORD"));
    }

    record Credentials(@Doc("A token.") @Default("t0ken") String apiToken,
                       @Doc("A password.") Optional<String> password,
                       @Doc("Length.") @Default("12") int passwordMinLength,
                       @Doc("Not a secret.") @Default("x") String tokenizer) {
    }

    @Test
    void aKeyNamedLikeACredentialIsSecretWithoutTheAnnotation() throws ConfigException {
        Credentials credentials = ConfigLoader.parse("c.yaml", "password: pw-in-clear", Credentials.class, Map.of());

        assertThat(ConfigTree.masked(credentials)).isEqualTo(Map.of("api_token", "***", "password", "***",
                "password_min_length", 12, "tokenizer", "x"));
    }

    @Test
    void theDiffListsChangedAddedAndRemovedKeysWithSecretsMasked() throws ConfigException {
        SampleConfig before = ConfigLoader.parse("gateway.yaml", YAML, SampleConfig.class, ENV);
        SampleConfig after = ConfigLoader.parse("gateway.yaml", YAML.replace("hunter2", "hunter3")
                .replace("- name: history", "- name: archive") + "labels: [north]\n", SampleConfig.class, ENV);

        assertThat(ConfigDiff.between(before, after)).containsExactly(
                new ConfigDiff.Change("connections.plc.password", "***", "***"),
                new ConfigDiff.Change("sinks[0].name", "history", "archive"),
                new ConfigDiff.Change("labels", List.of(), null),
                new ConfigDiff.Change("labels[0]", null, "north"));
        assertThat(ConfigDiff.between(before, before)).isEmpty();
    }
}
