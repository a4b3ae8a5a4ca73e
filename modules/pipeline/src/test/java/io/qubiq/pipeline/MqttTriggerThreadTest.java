package io.qubiq.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.qubiq.buffer.OverflowPolicy;
import io.qubiq.pipeline.trigger.DeviceMessages;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A pipeline triggered by MQTT messages runs off the connector's message thread, on its own bounded
 * queue. Before, the connector's thread ran the whole pipeline, writing to a synchronous destination
 * itself: a slow destination delayed every tag value of that MQTT connection.
 */
class MqttTriggerThreadTest {

    @TempDir
    Path dir;

    private PipelineRig rig;

    @AfterEach
    void stop() throws Exception {
        if (rig != null) {
            rig.close();
        }
    }

    /** Delivers messages on the thread that calls {@link #deliver}, as the MQTT connector's tap does. */
    private static final class ConnectorMessages implements DeviceMessages {
        final List<Consumer<DeviceMessage>> listeners = new CopyOnWriteArrayList<>();

        @Override
        public AutoCloseable listen(String connection, String topicFilter, Consumer<DeviceMessage> listener) {
            listeners.add(listener);
            return () -> listeners.remove(listener);
        }

        void deliver(String topic, String payload) {
            listeners.forEach(listener -> listener.accept(
                    new DeviceMessage(topic, payload, Optional.empty(), Instant.now())));
        }
    }

    @Test
    void anMqttTriggeredPipelineNeverRunsOnTheConnectorsThreadAndKeepsTheMessageOrder() throws Exception {
        ConnectorMessages messages = new ConnectorMessages();
        rig = new PipelineRig(dir).connection("db", OverflowPolicy.REFUSE, PipelineRig.fast());
        rig.synchronous.add("db"); // the producer's own thread writes: the sink sees who produced
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

        List<String> expected = new ArrayList<>();
        Thread connector = new Thread(() -> {
            for (int i = 0; i < 200; i++) {
                messages.deliver("line1/speed", String.valueOf(i));
            }
        }, "mqtt-connector-messages");
        for (int i = 0; i < 200; i++) {
            expected.add("line1/speed " + i);
        }
        connector.start();
        connector.join();

        await().atMost(Duration.ofSeconds(20)).until(() -> rig.received("db").size() == 200);
        assertThat(rig.received("db")).containsExactlyElementsOf(expected);
        assertThat(rig.sinks.get("db").writerThreads()).doesNotContain("mqtt-connector-messages")
                .contains("pipeline-readings");
    }

    // Catches an Error in an MQTT-triggered pipeline ending its queue thread for good, unseen.
    @Test
    void anErrorInAnMqttTriggeredPipelineRestartsItsThreadUnderTheAlarmAndTheNextMessagesGetThrough()
            throws Exception {
        ConnectorMessages messages = new ConnectorMessages();
        rig = new PipelineRig(dir).connection("db", OverflowPolicy.REFUSE, PipelineRig.fast());
        rig.messages = messages;
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.atomic.AtomicBoolean thrown = new java.util.concurrent.atomic.AtomicBoolean();
        rig.onRender = item -> {
            if (item.endsWith(" boom") && thrown.compareAndSet(false, true)) {
                throw new OutOfMemoryError("Java heap space (scripted)");
            }
            if (thrown.get()) {
                try {
                    release.await(30, java.util.concurrent.TimeUnit.SECONDS); // hold the restarted thread
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
        rig.start(PipelineConfigs.parse("""
                pipelines:
                  readings:
                    trigger:
                      mqtt: {connection: plant, topic: "line1/#"}
                    outputs:
                      - connection: db
                        mqtt: {topic: "t", payload: "topic + ' ' + payload"}
                """));

        messages.deliver("line1/speed", "boom");
        await().until(() -> rig.pipelines.failingTriggers().containsKey("readings"));
        assertThat(rig.pipelines.failingTriggers().get("readings"))
                .isEqualTo("java.lang.OutOfMemoryError: Java heap space (scripted)");
        assertThat(rig.events.alarms(io.qubiq.core.event.SubscriberFailedAlarm.class)).singleElement()
                .satisfies(alarm -> assertThat(alarm.active()).isTrue());
        messages.deliver("line1/speed", "1");
        messages.deliver("line1/speed", "2");
        release.countDown();

        await().atMost(Duration.ofSeconds(20)).until(() -> rig.received("db").size() == 2);
        assertThat(rig.received("db")).containsExactly("line1/speed 1", "line1/speed 2");
        await().until(() -> rig.pipelines.failingTriggers().isEmpty());
        assertThat(rig.events.alarms(io.qubiq.core.event.SubscriberFailedAlarm.class)).hasSize(2)
                .last().satisfies(alarm -> assertThat(alarm.active()).isFalse());
        assertThat(rig.events.losses()).anySatisfy(loss -> {
            assertThat(loss.reason()).isEqualTo(io.qubiq.core.event.LossReason.SUBSCRIBER_FAILED);
            assertThat(loss.component()).isEqualTo("pipeline");
            assertThat(loss.items()).isEqualTo(1);
        });
    }
}
