package io.qubiq.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qubiq.config.ConfigException;
import io.qubiq.pipeline.config.MongoOutputMode;
import io.qubiq.pipeline.config.OutputConfig;
import io.qubiq.pipeline.config.PipelineConfig;
import io.qubiq.pipeline.config.TriggerConfig;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PipelineConfigTest {

    private static String sample() throws IOException {
        try (InputStream in = PipelineConfigTest.class.getResourceAsStream("/pipelines.yaml")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void theSampleConfigurationBindsEveryTriggerAndOutputKind() throws Exception {
        Map<String, PipelineConfig> pipelines = PipelineConfigs.parse(sample());

        assertThat(pipelines).containsOnlyKeys("production-counts", "shift-snapshot", "batch-records");
        PipelineConfig counts = pipelines.get("production-counts");
        assertThat(counts.trigger().kind()).isEqualTo(TriggerConfig.Kind.TAGS);
        assertThat(counts.outputs()).extracting(o -> (Object) o.getClass())
                .containsExactly(OutputConfig.Sql.class, OutputConfig.QuestDb.class, OutputConfig.Mqtt.class);
        assertThat(pipelines.get("shift-snapshot").trigger().kind()).isEqualTo(TriggerConfig.Kind.INTERVAL);
        PipelineConfig batches = pipelines.get("batch-records");
        assertThat(batches.trigger().kind()).isEqualTo(TriggerConfig.Kind.MQTT);
        assertThat(batches.outputs().get(0)).isInstanceOfSatisfying(OutputConfig.MongoDb.class,
                output -> assertThat(output.mongodb().mode()).isEqualTo(MongoOutputMode.UPSERT));
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "new('java.io.File', '/etc/passwd')",
            "java.lang.Runtime.getRuntime().exec('id')",
            "path.class.forName('java.lang.ProcessBuilder')",
            "''.getClass()",
            "System.getenv('HOME')",
    })
    void anExpressionThatReachesForAClassAFileOrAProcessFailsTheConfigurationLoad(String expression) {
        String yaml = """
                pipelines:
                  p:
                    trigger: {tags: ["a/**"]}
                    transforms:
                      - name: sneaky
                        expression: "%s"
                    outputs:
                      - connection: out
                        mqtt: {topic: "t", payload: "value"}
                """.formatted(expression.replace("\"", "\\\""));

        assertThatThrownBy(() -> PipelineConfigs.parse(yaml)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("pipelines.p.transforms[0].expression");
    }

    @Test
    void everyExpressionProblemIsReportedAtOnceWithItsKeyPath() {
        String yaml = """
                pipelines:
                  p:
                    trigger: {interval_ms: 1000}
                    filter: "value > 3"
                    transforms:
                      - name: now
                        expression: "1"
                    outputs:
                      - connection: broker
                        mqtt: {topic: "gw/{{topic}}", payload: "exec('x')"}
                """;

        assertThatThrownBy(() -> PipelineConfigs.parse(yaml)).isInstanceOf(ConfigException.class)
                .satisfies(e -> assertThat(e.getMessage())
                        .contains("pipelines.p.filter").contains("\"value\"")
                        .contains("pipelines.p.transforms[0].name").contains("already a variable")
                        .contains("pipelines.p.outputs[0].mqtt.topic")
                        .contains("pipelines.p.outputs[0].mqtt.payload").contains("exec"));
    }

    @Test
    void anUpsertWithoutKeyFieldsIsRejected() {
        String yaml = """
                pipelines:
                  p:
                    trigger: {interval_ms: 1000}
                    outputs:
                      - connection: docs
                        mongodb: {collection: c, document: {a: "now"}, mode: upsert}
                """;
        assertThatThrownBy(() -> PipelineConfigs.parse(yaml)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("pipelines.p.outputs[0].mongodb.key_fields");
    }

    @Test
    void aTriggerNeedsExactlyOneKind() {
        String yaml = """
                pipelines:
                  p:
                    trigger: {interval_ms: 1000, tags: ["a"]}
                    outputs:
                      - connection: out
                        mqtt: {topic: "t", payload: "now"}
                """;
        assertThatThrownBy(() -> PipelineConfigs.parse(yaml)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("exactly one of tags, interval_ms or mqtt");
    }
}
