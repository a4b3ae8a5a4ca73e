package io.qubiq.app.apply;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.qubiq.app.Gateway;
import io.qubiq.app.TestOperators;
import io.qubiq.app.config.ConfigApplier;
import io.qubiq.app.config.LoadedConfig;
import io.qubiq.app.runtime.DataDirectory;
import io.qubiq.core.tag.TagPath;
import io.qubiq.core.tag.TagValue;
import io.qubiq.testkit.mqtt.InboundLog;
import io.qubiq.testkit.mqtt.TestMqttBroker;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pipelines added, changed and removed live while values flow, writing through a real outbound MQTT
 * connection to a real broker (embedded HiveMQ) that records what it received. Every value is a number
 * counting up, so a gap is a lost value. Would catch a change that restarts every pipeline (a gap in the
 * untouched pipeline), one that drops what the changed pipeline's trigger had queued (a gap at the
 * switch), one that delivers a value under both the old and the new configuration (a duplicate), a new
 * pipeline that is installed but never started, and a removed one still writing.
 */
class LivePipelineApplyTest {

    private static final String TAG = "line/count";
    static TestMqttBroker broker;

    @TempDir
    Path dir;
    private DataDirectory data;
    private Gateway gateway;
    private LoadedConfig before;
    private final AtomicBoolean counting = new AtomicBoolean(true);
    private final AtomicLong published = new AtomicLong();
    private Thread counter;

    @BeforeAll
    static void startBroker() {
        broker = TestMqttBroker.onFreePort().withPublishPolicy(Duration.ofSeconds(1)).start();
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    private String yaml(String pipelines) {
        return TestOperators.AUTH_YAML + """
                http:
                  port: 0
                logging:
                  file_enabled: false
                outbound:
                  broker:
                    mqtt: {host: 127.0.0.1, port: %d}
                pipelines:
                """.formatted(broker.port()) + pipelines;
    }

    private static String pipeline(String id, String topic, String filter) {
        return """
                  %s:
                    trigger:
                      tags: ["%s"]
                %s    outputs:
                      - connection: broker
                        mqtt: {topic: "%s", payload: "value", qos: 1}
                """.formatted(id, TAG, filter.isEmpty() ? "" : "    filter: \"" + filter + "\"\n",
                InboundLog.PREFIX + topic);
    }

    private LoadedConfig config(String pipelines) throws Exception {
        return LoadedConfig.bind("test.yaml", "sha256", yaml(pipelines), Map.of());
    }

    @BeforeEach
    void start() throws Exception {
        before = config(pipeline("steady", "steady", "") + pipeline("edited", "edited-v1", ""));
        data = DataDirectory.open(dir);
        gateway = new Gateway(before, data, Clock.systemUTC());
        gateway.lifecycle().startAll();
        counter = new Thread(() -> {
            while (counting.get()) {
                gateway.tagBus().publish(TagValue.good(TagPath.of(TAG), (double) published.incrementAndGet(),
                        Instant.now()));
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "line-counter");
        counter.start();
        await().atMost(Duration.ofSeconds(30)).until(() -> received("steady").size() > 50);
    }

    @AfterEach
    void stop() throws Exception {
        counting.set(false);
        counter.join();
        gateway.lifecycle().stopAll(Duration.ofSeconds(10));
        data.close();
    }

    private static List<Long> received(String topic) {
        return broker.inbound().on(InboundLog.PREFIX + topic).stream().map(p -> (long) Double.parseDouble(p)).toList();
    }

    @Test
    void pipelinesAddedChangedAndRemovedLiveLoseNoValueOfAnyOtherPipelineNorOfTheChangedOne() throws Exception {
        LoadedConfig changed = config(pipeline("steady", "steady", "")
                + pipeline("edited", "edited-v2", "value > 0") + pipeline("added", "added", ""));
        ConfigApplier.Applied result = gateway.configApplier().apply(before, changed,
                Set.of("pipeline:edited", "pipeline:added"));
        assertThat(result.applied()).containsExactlyInAnyOrder("pipeline:edited", "pipeline:added");
        assertThat(result.needRestart()).isEmpty();
        await().atMost(Duration.ofSeconds(20)).until(() -> received("added").size() > 50
                && received("edited-v2").size() > 50);

        LoadedConfig removed = config(pipeline("steady", "steady", "") + pipeline("edited", "edited-v2", "value > 0"));
        assertThat(gateway.configApplier().apply(changed, removed, Set.of("pipeline:added")).applied())
                .containsExactly("pipeline:added");
        long publishedAtRemoval = published.get();
        Thread.sleep(500);
        counting.set(false);
        counter.join();
        long last = published.get();
        await().atMost(Duration.ofSeconds(30)).until(() -> received("steady").size() >= last
                && received("edited-v1").size() + received("edited-v2").size() >= last);

        List<Long> all = LongStream.rangeClosed(1, last).boxed().toList();
        assertThat(received("steady")).as("the untouched pipeline: every value once, in order").isEqualTo(all);
        List<Long> edited = new ArrayList<>(received("edited-v1"));
        edited.addAll(received("edited-v2"));
        assertThat(edited).as("the changed pipeline: every value once, the old topic up to the change, the new"
                + " one after it").isEqualTo(all);
        List<Long> added = received("added");
        assertThat(added).as("the added pipeline: from when it started, contiguous").isEqualTo(
                LongStream.rangeClosed(added.get(0), added.get(added.size() - 1)).boxed().toList());
        assertThat(added.get(added.size() - 1)).as("no value published after its removal reached it")
                .isLessThanOrEqualTo(publishedAtRemoval);
        assertThat(gateway.pipelines().orElseThrow().status("edited").orElseThrow().events())
                .as("the changed pipeline kept its counters").isEqualTo(last);
        assertThat(gateway.pipelines().orElseThrow().status("added")).isEmpty();
    }

    @Test
    void aPipelineWhoseNewOutputCannotBeBuiltKeepsRunningAsItWas() throws Exception {
        String unknown = pipeline("edited", "edited-v2", "").replace("connection: broker", "connection: nowhere");
        LoadedConfig broken = LoadedConfig.bind("test.yaml", "sha256", yaml(pipeline("steady", "steady", "")
                + unknown).replace("pipelines:\n", """
                  nowhere:
                    mqtt: {host: 127.0.0.1, port: 1}
                pipelines:
                """), Map.of());

        ConfigApplier.Applied result = gateway.configApplier().apply(before, broken, Set.of("pipeline:edited"));

        assertThat(result.needRestart()).containsExactly("pipeline:edited");
        int now = received("edited-v1").size();
        await().atMost(Duration.ofSeconds(10)).until(() -> received("edited-v1").size() > now + 20);
    }
}
