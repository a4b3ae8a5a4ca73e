package io.qubiq.config;

import static io.qubiq.config.SampleYaml.bind;
import static io.qubiq.config.SampleYaml.minimal;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class EffectiveConfigTest {

    private static final String YAML = minimal("""
            name: "north ${x} \\"hall\\""
            connections:
              plc:
                type: opcua
                endpoint_url: opc.tcp://plc:4840
                password: hunter2
              Broker-A:
                type: mqtt
                broker_url: tcp://b
            sinks:
              - name: history
                url: postgres://admin:hunter2@db
                headers: {X-Site: north}
            labels: [a, "yes"]
            """).replace("${x}", "$${x}");

    @Test
    void writesEveryKeyWithDefaultsAndMasksSecrets() throws ConfigException {
        String dump = EffectiveConfig.toYaml(bind(YAML, Map.of("ADMIN_PASSWORD", "hunter2")));

        assertThat(dump).isEqualTo("""
                name: "north $${x} \\"hall\\""
                http:
                  port: 8080
                  tls_enabled: false
                  admin_password: "***"
                buffer:
                  directory: "/var/lib/qubiq"
                  max_bytes: 67108864
                  overflow: drop_oldest
                  low_water_mark: 500
                  high_water_mark: 1000
                connections:
                  "plc":
                    type: "opcua"
                    endpoint_url: "opc.tcp://plc:4840"
                    sampling_interval_ms: 1000
                    password: "***"
                  "Broker-A":
                    type: "mqtt"
                    broker_url: "tcp://b"
                    topics:
                      - "#"
                    qos: 1
                sinks:
                  - name: "history"
                    url: "***"
                    headers:
                      "X-Site": "north"
                    timeout_ms: 5000
                labels:
                  - "a"
                  - "yes"
                trace_ratio: 0.25
                """);
        assertThat(dump).doesNotContain("hunter2");
    }

    @Test
    void loadsBackToTheSameConfiguration() throws ConfigException {
        String withoutSecrets = YAML.replace("    password: hunter2\n", "");
        SampleConfig config = bind(withoutSecrets);

        SampleConfig reloaded = bind(EffectiveConfig.toYaml(config));

        assertThat(reloaded.name()).isEqualTo("north ${x} \"hall\"");
        assertThat(reloaded).usingRecursiveComparison().ignoringFields("http.adminPassword", "sinks").isEqualTo(config);
        assertThat(reloaded.sinks().get(0).url()).isEqualTo("***");
    }
}
