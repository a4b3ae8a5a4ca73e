package io.qubiq.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.qubiq.buffer.OverflowPolicy;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IntervalTriggerTest {

    @TempDir
    Path dir;

    private PipelineRig rig;

    @AfterEach
    void stop() throws Exception {
        if (rig != null) {
            rig.close();
        }
    }

    private static final String SNAPSHOT = """
            pipelines:
              snapshot:
                trigger: {interval_ms: 200}
                outputs:
                  - connection: out
                    mqtt: {topic: "t", payload: "'speed=' + str(tag('line1/speed'))"}
            """;

    @Test
    void aTimerRunsEveryIntervalAndReadsTheLatestTagValues() throws Exception {
        rig = new PipelineRig(dir).connection("out", OverflowPolicy.DROP_OLDEST, PipelineRig.fast());
        rig.start(PipelineConfigs.parse(SNAPSHOT));
        rig.publish("line1/speed", 1450.0);
        await().atMost(Duration.ofSeconds(10)).until(() -> rig.received("out").contains("speed=1450"));
        long before = rig.pipelines.status("snapshot").orElseThrow().events();
        long start = System.nanoTime();
        await().atMost(Duration.ofSeconds(20)).until(() -> rig.pipelines.status("snapshot").orElseThrow().events()
                >= before + 3);
        // three more runs take at least two intervals, however late a loaded scheduler fires them
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(400));
    }

    @Test
    void aRestartedTimerKeepsItsRhythmFromTheSavedDueTime() throws Exception {
        rig = new PipelineRig(dir).connection("out", OverflowPolicy.DROP_OLDEST, PipelineRig.fast());
        rig.start(PipelineConfigs.parse(SNAPSHOT.replace("interval_ms: 200", "interval_ms: 60000")));
        rig.stop();
        PipelineState saved = new PipelineStateStore(dir.resolve("pipelines")).load().get("snapshot");
        assertThat(saved.nextRunAt()).get().matches(due -> due.isAfter(Instant.now().plusSeconds(50)));

        rig = new PipelineRig(dir).connection("out", OverflowPolicy.DROP_OLDEST, PipelineRig.fast());
        rig.start(PipelineConfigs.parse(SNAPSHOT.replace("interval_ms: 200", "interval_ms: 60000")));
        rig.stop();
        PipelineState again = new PipelineStateStore(dir.resolve("pipelines")).load().get("snapshot");
        assertThat(again.nextRunAt()).isEqualTo(saved.nextRunAt());
        assertThat(again.events()).isZero();
    }
}
