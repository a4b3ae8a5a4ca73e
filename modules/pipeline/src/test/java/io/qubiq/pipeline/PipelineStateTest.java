package io.qubiq.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.qubiq.buffer.OverflowPolicy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PipelineStateTest {

    @TempDir
    Path dir;

    private PipelineRig rig;

    @AfterEach
    void stop() throws Exception {
        if (rig != null) {
            rig.close();
        }
    }

    private static String config(boolean enabled) {
        return """
                pipelines:
                  p:
                    enabled: %s
                    trigger: {tags: ["a/**"]}
                    outputs:
                      - connection: out
                        mqtt: {topic: "t", payload: "100 / value"}
                """.formatted(enabled);
    }

    private PipelineRig started(String yaml) throws Exception {
        rig = new PipelineRig(dir).connection("out", OverflowPolicy.DROP_OLDEST, PipelineRig.fast());
        return rig.start(PipelineConfigs.parse(yaml));
    }

    @Test
    void countersAndTheLastErrorSurviveARestart() throws Exception {
        started(config(true));
        rig.publish("a/x", 4L);
        rig.publish("a/x", "oops");
        await().atMost(Duration.ofSeconds(10)).until(() -> rig.pipelines.status("p").orElseThrow().events() == 2);
        rig.stop();

        started(config(true));
        PipelineStatus restored = rig.pipelines.status("p").orElseThrow();
        assertThat(restored.events()).isEqualTo(2);
        assertThat(restored.emitted()).isEqualTo(1);
        assertThat(restored.failed()).isEqualTo(1);
        assertThat(restored.lastError()).get().asString().contains("100 / value");
        rig.publish("a/x", 5L);
        await().atMost(Duration.ofSeconds(10)).until(() -> rig.pipelines.status("p").orElseThrow().events() == 3);
        assertThat(rig.received("out")).containsExactly("20");
    }

    @Test
    void anOperatorsDisableSurvivesARestartUntilTheConfigurationChanges() throws Exception {
        started(config(true));
        rig.pipelines.enable("p", false);
        rig.publish("a/x", 4L);
        rig.stop();

        started(config(true));
        assertThat(rig.pipelines.status("p").orElseThrow().enabled()).isFalse();
        rig.publish("a/x", 5L);
        Thread.sleep(300);
        assertThat(rig.received("out")).isEmpty();
        assertThat(rig.pipelines.status("p").orElseThrow().events()).isZero();
        rig.stop();

        started(config(false));
        assertThat(rig.pipelines.status("p").orElseThrow().enabled()).isFalse();
        rig.stop();

        started(config(true));
        assertThat(rig.pipelines.status("p").orElseThrow().enabled())
                .as("the configuration changed since the operator's choice, so it wins").isTrue();
    }

    private static String twoPipelines(String secondConnection) {
        return """
                pipelines:
                  p:
                    trigger: {tags: ["a/**"]}
                    outputs:
                      - connection: out
                        mqtt: {topic: "t", payload: "'p ' + value"}
                  q:
                    trigger: {tags: ["b/**"]}
                    outputs:
                      - connection: %s
                        mqtt: {topic: "t", payload: "'q ' + value"}
                """.formatted(secondConnection);
    }

    @Test
    void aPipelineThatCannotStartIsNamedWithItsReasonWhileTheOthersRunAndItsSavedStateIsKept() throws Exception {
        started(twoPipelines("out"));
        rig.publish("b/x", 1L);
        await().atMost(Duration.ofSeconds(10)).until(() -> rig.pipelines.status("q").orElseThrow().events() == 1);
        rig.stop();

        started(twoPipelines("gone"));
        assertThat(rig.pipelines.failures()).containsExactly(Map.entry("q", "no outbound connection 'gone'"));
        assertThat(rig.pipelines.status("q")).isEmpty();
        rig.publish("a/x", 2L);
        await().atMost(Duration.ofSeconds(10)).until(() -> rig.received("out").contains("p 2"));
        rig.stop();

        started(twoPipelines("out"));
        assertThat(rig.pipelines.failures()).isEmpty();
        assertThat(rig.pipelines.status("q").orElseThrow().events()).as("counted before the failed start").isEqualTo(1);
    }

    @Test
    void anUnreadableStateFileIsMovedAsideAndThePipelinesStartFresh() throws Exception {
        Path stateDir = dir.resolve("pipelines");
        Files.createDirectories(stateDir);
        Files.writeString(stateDir.resolve("pipelines.properties"), "p.enabled=perhaps\np.events=many\n");

        started(config(true));

        assertThat(rig.pipelines.status("p").orElseThrow().events()).isZero();
        assertThat(stateDir.resolve("pipelines.properties.corrupt")).exists();
    }

    @Test
    void aStateFileWrittenByANewerGatewayIsRefusedAndLeftAsItIs() throws Exception {
        Path stateDir = dir.resolve("pipelines");
        Files.createDirectories(stateDir);
        Path file = stateDir.resolve("pipelines.properties");
        String newer = "format=qubiq-pipeline-state/2\np.enabled=false\np.events=7\n";
        Files.writeString(file, newer);

        assertThatThrownBy(() -> new PipelineStateStore(stateDir).load())
                .isInstanceOf(io.qubiq.fileops.NewerFormatException.class)
                .hasMessageContaining("pipeline state " + file)
                .hasMessageContaining("format version 2, newer than version 1");
        assertThat(Files.readString(file)).as("not moved aside, not rewritten").isEqualTo(newer);
        assertThat(stateDir.resolve("pipelines.properties.corrupt")).doesNotExist();
    }

    @Test
    void aStateFileFromBeforeTheFormatKeyIsReadAndTheNextSaveAddsIt() throws Exception {
        Path stateDir = dir.resolve("pipelines");
        Files.createDirectories(stateDir);
        Files.writeString(stateDir.resolve("pipelines.properties"), "p.enabled=false\np.events=7\n");
        PipelineStateStore store = new PipelineStateStore(stateDir);

        Map<String, PipelineState> loaded = store.load();
        store.save(loaded);

        assertThat(loaded.get("p").events()).isEqualTo(7);
        assertThat(Files.readString(stateDir.resolve("pipelines.properties"))).contains("format=qubiq-pipeline-state/1");
    }

    @Test
    void theStoreWritesAWholeFileThatReadsBackTheSame() throws Exception {
        PipelineStateStore store = new PipelineStateStore(dir);
        PipelineState state = new PipelineState(false, java.util.Optional.of(true), 10, 2, 1, 7, 3,
                java.util.Optional.of("a=b\nsecond line: ü"), java.util.Optional.of(java.time.Instant.EPOCH),
                java.util.Optional.empty(), java.util.Optional.of(java.time.Instant.parse("2026-11-30T10:00:00Z")));
        store.save(Map.of("line-1.counts", state));
        assertThat(store.load()).containsEntry("line-1.counts", state);
        assertThat(dir.resolve("pipelines.properties.tmp")).doesNotExist();
    }
}
