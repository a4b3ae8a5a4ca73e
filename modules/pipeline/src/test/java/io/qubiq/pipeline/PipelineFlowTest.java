package io.qubiq.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.qubiq.buffer.OverflowPolicy;
import io.qubiq.core.event.LossReason;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PipelineFlowTest {

    @TempDir
    Path dir;

    private PipelineRig rig;

    @AfterEach
    void stop() throws Exception {
        if (rig != null) {
            rig.close();
        }
    }

    private static final String COUNTS = """
            pipelines:
              counts:
                trigger:
                  tags: ["line1/*/count"]
                filter: "good && value > 0"
                transforms:
                  - name: doubled
                    expression: "value * 2"
                outputs:
                  - connection: db
                    mqtt: {topic: "unused", payload: "path + '=' + str(doubled)"}
                  - connection: broker
                    mqtt: {topic: "unused", payload: "item_id"}
            """;

    @Test
    void matchingTagChangesReachEveryOutputInOrderThroughTheirChannels() throws Exception {
        rig = new PipelineRig(dir).connection("db", OverflowPolicy.REFUSE, PipelineRig.fast())
                .connection("broker", OverflowPolicy.DROP_OLDEST, PipelineRig.fast())
                .start(PipelineConfigs.parse(COUNTS));

        List<String> expected = new ArrayList<>();
        for (int i = 1; i <= 500; i++) {
            rig.publish("line1/packer/count", (long) i);
            rig.publish("line1/packer/speed", (double) i); // not matched by the trigger
            expected.add("line1/packer/count=" + (2 * i));
        }

        await().atMost(Duration.ofSeconds(20)).until(() -> rig.received("db").size() == 500);
        assertThat(rig.received("db")).containsExactlyElementsOf(expected);
        await().atMost(Duration.ofSeconds(20)).until(() -> rig.received("broker").size() == 500);
        assertThat(rig.received("broker")).doesNotHaveDuplicates().allMatch(id -> id.startsWith("counts:"));
        PipelineStatus status = rig.pipelines.status("counts").orElseThrow();
        assertThat(status.events()).isEqualTo(500);
        assertThat(status.emitted()).isEqualTo(500);
        assertThat(status.outputs()).extracting(PipelineOutput.OutputCounts::submitted).containsExactly(500L, 500L);
    }

    @Test
    void theFilterTurnsEventsAwayAndCountsThem() throws Exception {
        rig = new PipelineRig(dir).connection("db", OverflowPolicy.REFUSE, PipelineRig.fast())
                .connection("broker", OverflowPolicy.DROP_OLDEST, PipelineRig.fast())
                .start(PipelineConfigs.parse(COUNTS));

        rig.publish("line1/packer/count", 0L);
        rig.publish("line1/packer/count", 5L);

        await().atMost(Duration.ofSeconds(10)).until(() -> rig.pipelines.status("counts").orElseThrow().events() == 2);
        await().until(() -> rig.received("db").size() == 1);
        PipelineStatus status = rig.pipelines.status("counts").orElseThrow();
        assertThat(status.filtered()).isEqualTo(1);
        assertThat(status.emitted()).isEqualTo(1);
    }

    @Test
    void anEventWhoseMappingFailsReachesNoOutputAndIsCountedWithItsError() throws Exception {
        rig = new PipelineRig(dir).connection("db", OverflowPolicy.REFUSE, PipelineRig.fast())
                .connection("broker", OverflowPolicy.DROP_OLDEST, PipelineRig.fast())
                .start(PipelineConfigs.parse("""
                        pipelines:
                          p:
                            trigger: {tags: ["a/**"]}
                            outputs:
                              - connection: broker
                                mqtt: {topic: "t", payload: "'ok ' + str(value)"}
                              - connection: db
                                mqtt: {topic: "t", payload: "100 / value"}
                        """));

        rig.publish("a/x", 4L);
        rig.publish("a/x", "not a number");
        rig.publish("a/x", 5L);

        await().atMost(Duration.ofSeconds(10)).until(() -> rig.pipelines.status("p").orElseThrow().events() == 3);
        await().until(() -> rig.received("broker").size() == 2);
        assertThat(rig.received("broker")).containsExactly("ok 4", "ok 5");
        assertThat(rig.received("db")).containsExactly("25", "20");
        PipelineStatus status = rig.pipelines.status("p").orElseThrow();
        assertThat(status.failed()).isEqualTo(1);
        assertThat(rig.events.losses()).filteredOn(loss -> loss.reason() == LossReason.EXPRESSION_FAILED)
                .singleElement().satisfies(loss -> {
            assertThat(loss.component()).isEqualTo("pipeline");
            assertThat(loss.connection()).isEqualTo("p");
            assertThat(loss.items()).isEqualTo(1);
        });
        assertThat(status.lastError()).get().asString().contains("100 / value");
    }

    @Test
    void anEvaluationOverItsTimeBudgetOrSizeLimitFailsThatEventOnlyAndIsCountedWithItsReason() throws Exception {
        rig = new PipelineRig(dir).connection("broker", OverflowPolicy.DROP_OLDEST, PipelineRig.fast())
                .start(PipelineConfigs.parse("""
                        pipelines:
                          p:
                            trigger: {tags: ["a/**"]}
                            filter: "!(str(value) =~ '(.*a){10}')"
                            outputs:
                              - connection: broker
                                mqtt: {topic: "t", payload: "value == 7 ? str(size(1 .. 30000000)) : str(value)"}
                        """));

        rig.publish("a/x", "a".repeat(30) + "!");
        rig.publish("a/x", 7L);
        rig.publish("a/x", 5L);

        await().atMost(Duration.ofSeconds(10)).until(() -> rig.pipelines.status("p").orElseThrow().events() == 3);
        await().until(() -> rig.received("broker").size() == 1);
        assertThat(rig.received("broker")).containsExactly("5");
        PipelineStatus status = rig.pipelines.status("p").orElseThrow();
        assertThat(status.failed()).isEqualTo(2);
        assertThat(status.lastError()).get().asString().contains("a range of 30000000 elements is over the limit");
        assertThat(rig.events.losses()).filteredOn(loss -> loss.reason() == LossReason.EXPRESSION_FAILED).hasSize(2);
    }

    @Test
    void aRefusingChannelAtItsLimitIsCountedAsRefusedWithAClearErrorWhileADropOldestChannelKeepsTakingItems()
            throws Exception {
        rig = new PipelineRig(dir)
                .connection("db", OverflowPolicy.REFUSE, PipelineRig.fast().withMaxBytes(256 * 1024)
                        .withSegmentBytes(64 * 1024))
                .connection("lake", OverflowPolicy.DROP_OLDEST, PipelineRig.fast().withMaxBytes(256 * 1024)
                        .withSegmentBytes(64 * 1024));
        rig.sinks.get("db").down(true);
        rig.sinks.get("lake").down(true);
        rig.start(PipelineConfigs.parse("""
                pipelines:
                  p:
                    trigger: {tags: ["a/**"]}
                    outputs:
                      - connection: db
                        mqtt: {topic: "t", payload: "path + ' ' + str(value) + ' ' + item_id"}
                      - connection: lake
                        mqtt: {topic: "t", payload: "path + ' ' + str(value) + ' ' + item_id"}
                """));

        for (int i = 0; i < 8_000; i++) {
            rig.publish("a/x", (long) i);
        }

        await().atMost(Duration.ofSeconds(20)).until(() -> rig.pipelines.status("p").orElseThrow().events() == 8_000);
        PipelineStatus status = rig.pipelines.status("p").orElseThrow();
        assertThat(status.refused()).isPositive();
        assertThat(status.lastError()).get().asString().contains("db").contains("full");
        assertThat(status.outputs().get(0).refused()).isEqualTo(status.refused());
        assertThat(status.outputs().get(1).refused()).isZero();
        assertThat(rig.channels.get("lake").status().itemsDropped()).isPositive();
        assertThat(rig.channels.get("db").status().itemsDropped()).isZero();
    }
}
