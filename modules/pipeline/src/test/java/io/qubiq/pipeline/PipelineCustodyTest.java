package io.qubiq.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.qubiq.buffer.OverflowPolicy;
import io.qubiq.core.tag.Custody;
import io.qubiq.core.tag.CustodyReceipt;
import io.qubiq.core.tag.TagPath;
import io.qubiq.core.tag.TagValue;
import io.qubiq.pipeline.trigger.DeviceMessages;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 19: a value of a QoS 1/2 MQTT message that a pipeline turns into items is acknowledged only
 * once every output's channel took custody of them (written or buffered), not when the pipeline's
 * queue took the value.
 */
class PipelineCustodyTest {

    @TempDir
    Path dir;

    private PipelineRig rig;
    private final AtomicInteger kept = new AtomicInteger();

    @AfterEach
    void stop() throws Exception {
        if (rig != null) {
            rig.close();
        }
    }

    private static final String TWO_OUTPUTS = """
            pipelines:
              counts:
                trigger:
                  tags: ["line1/*/count"]
                filter: "value > 0"
                outputs:
                  - connection: db
                    mqtt: {topic: "unused", payload: "path + '=' + str(value)"}
                  - connection: broker
                    mqtt: {topic: "unused", payload: "item_id"}
            """;

    private CustodyReceipt publish(long value) {
        CustodyReceipt receipt = CustodyReceipt.open(kept::incrementAndGet);
        rig.bus.publish(TagValue.good(TagPath.of("line1/packer/count"), value, Instant.now()), receipt);
        receipt.published();
        return receipt;
    }

    @Test
    void aValueIsKeptOnlyOnceEveryOutputsWriteSucceeded() throws Exception {
        rig = new PipelineRig(dir).connection("db", OverflowPolicy.REFUSE, PipelineRig.fast())
                .connection("broker", OverflowPolicy.DROP_OLDEST, PipelineRig.fast());
        rig.start(PipelineConfigs.parse(TWO_OUTPUTS));
        rig.sinks.get("db").writeDelayMillis(1_500);

        publish(7);

        await().atMost(Duration.ofSeconds(10)).until(() -> rig.received("broker").size() == 1);
        assertThat(kept).as("the db output's write is still under way").hasValue(0);
        await().atMost(Duration.ofSeconds(10)).until(() -> kept.get() == 1);
        assertThat(rig.received("db")).containsExactly("line1/packer/count=7");
    }

    @Test
    void aValueWhoseWriteFailsIsKeptOnceItIsInTheBuffer() throws Exception {
        rig = new PipelineRig(dir).connection("db", OverflowPolicy.REFUSE, PipelineRig.fast())
                .connection("broker", OverflowPolicy.DROP_OLDEST, PipelineRig.fast());
        rig.start(PipelineConfigs.parse(TWO_OUTPUTS));
        rig.sinks.get("db").down(true);

        publish(7);

        await().atMost(Duration.ofSeconds(10)).until(() -> kept.get() == 1);
        assertThat(rig.channels.get("db").status().bufferedItems()).isEqualTo(1);
        assertThat(rig.received("db")).isEmpty();
    }

    /** Delivers messages with a custody that counts its releases, as the MQTT connector's keeping tap does. */
    private static final class KeepingMessages implements DeviceMessages {
        final List<BiConsumer<DeviceMessage, Custody>> listeners = new CopyOnWriteArrayList<>();

        @Override
        public AutoCloseable listen(String connection, String topicFilter, Consumer<DeviceMessage> listener) {
            throw new AssertionError("an MQTT trigger must listen with custody");
        }

        @Override
        public AutoCloseable listenKeeping(String connection, String topicFilter,
                                           BiConsumer<DeviceMessage, Custody> listener) {
            listeners.add(listener);
            return () -> listeners.remove(listener);
        }

        void deliver(String topic, String payload, Custody custody) {
            listeners.forEach(listener -> listener.accept(
                    new DeviceMessage(topic, payload, Optional.empty(), Instant.now()), custody));
        }
    }

    @Test
    void anMqttTriggeredPipelineHoldsTheMessagesCustodyUntilItsOutputWasWritten() throws Exception {
        KeepingMessages messages = new KeepingMessages();
        rig = new PipelineRig(dir).connection("db", OverflowPolicy.REFUSE, PipelineRig.fast());
        rig.messages = messages;
        rig.start(PipelineConfigs.parse("""
                pipelines:
                  readings:
                    trigger:
                      mqtt: {connection: plant, topic: "line1/#"}
                    outputs:
                      - connection: db
                        mqtt: {topic: "t", payload: "topic + ' ' + payload"}
                """));
        rig.sinks.get("db").writeDelayMillis(1_500);

        messages.deliver("line1/speed", "1", kept::incrementAndGet);

        await().atMost(Duration.ofSeconds(10)).until(() -> rig.sinks.get("db").writes() == 1);
        assertThat(kept).as("its write is under way").hasValue(0);
        await().atMost(Duration.ofSeconds(10)).until(() -> kept.get() == 1);
        assertThat(rig.received("db")).containsExactly("line1/speed 1");
    }

    @Test
    void aValueTheFilterTurnsAwayIsKeptAtOnce() throws Exception {
        rig = new PipelineRig(dir).connection("db", OverflowPolicy.REFUSE, PipelineRig.fast())
                .connection("broker", OverflowPolicy.DROP_OLDEST, PipelineRig.fast());
        rig.start(PipelineConfigs.parse(TWO_OUTPUTS));
        rig.sinks.get("db").writeDelayMillis(5_000);

        publish(-1);

        await().atMost(Duration.ofSeconds(5)).until(() -> kept.get() == 1);
        assertThat(rig.pipelines.status("counts").orElseThrow().filtered()).isEqualTo(1);
    }
}
