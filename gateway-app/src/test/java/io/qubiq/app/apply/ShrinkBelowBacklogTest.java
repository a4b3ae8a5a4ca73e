package io.qubiq.app.apply;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.qubiq.app.config.ConfigSource;
import io.qubiq.app.config.ConfigState;
import io.qubiq.app.config.ConfigWrites;
import io.qubiq.app.config.LoadedConfig;
import io.qubiq.app.config.RunningConfigAccess;
import io.qubiq.console.ConfigAccess;
import io.qubiq.app.devices.DeviceConnections;
import io.qubiq.app.outbound.OutboundConnection;
import io.qubiq.app.outbound.OutboundConnections;
import io.qubiq.console.ConfigChanges;
import io.qubiq.core.connector.DeviceKind;
import io.qubiq.core.event.DataLoss;
import io.qubiq.core.event.LossReason;
import io.qubiq.sink.mqtt.MqttMessage;
import io.qubiq.storeforward.ConnectionMonitor;
import io.qubiq.storeforward.StoreForwardChannel;
import io.qubiq.testkit.RecordingEvents;
import io.qubiq.testkit.mqtt.InboundLog;
import io.qubiq.testkit.mqtt.TestMqttBroker;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code max_bytes} lowered below a channel's backlog through the configuration API's write side (the
 * file, its revisions and the live apply) with an MQTT connection whose broker is away, then a real one
 * (embedded HiveMQ): the dry run names the backlog and the choice; without a choice nothing is written or changed and the answer names the backlog and
 * the choices; {@code keep} keeps every item; {@code drop_oldest} drops exactly the oldest beyond the
 * limit, counted in the loss ledger with the user, and the rest arrives in order. Would catch a shrink
 * that silently keeps or drops, writes the file before asking, or drops the newest.
 */
class ShrinkBelowBacklogTest {

    private static final String TOPIC = InboundLog.PREFIX + "line1/shrink";
    private static final String MAX_BYTES = "outbound.mes.store_and_forward.max_bytes";
    private static final int ITEMS = 1_500;
    static TestMqttBroker broker;

    @TempDir
    Path dir;
    private final RecordingEvents events = new RecordingEvents();
    private Map<String, OutboundConnection<?>> outbound;
    private ConfigState state;
    private ConfigWrites writes;
    private LiveApply apply;
    private Path file;

    @BeforeAll
    static void startBroker() {
        broker = TestMqttBroker.onFreePort().withPublishPolicy(Duration.ofSeconds(1)).start();
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    @BeforeEach
    void start() throws Exception {
        int dead;
        try (ServerSocket socket = new ServerSocket(0)) {
            dead = socket.getLocalPort();
        }
        file = Files.writeString(dir.resolve("gateway.yaml"), """
                http:
                  port: 0
                outbound:
                  mes:
                    mqtt:
                      host: 127.0.0.1
                      port: %d
                    store_and_forward:
                      max_bytes: 4194304
                      segment_bytes: 65536
                      batch_max_items: 20
                """.formatted(dead));
        LoadedConfig loaded = ConfigSource.loadFile(file, Map.of(), dir);
        Clock clock = Clock.systemUTC();
        outbound = OutboundConnections.build(loaded.config().outbound(), dir, new ConnectionMonitor(clock),
                Duration.ofSeconds(5), events, clock);
        outbound.get("mes").channel().start();
        DeviceConnections devices = new DeviceConnections(Map.of(), value -> { }, events, clock);
        apply = new LiveApply(devices, new DeviceKind.Context("gw", dir, clock, events), id -> { }, new io.qubiq.app.outbound.RunningOutbound(outbound, dir, new ConnectionMonitor(clock),
                        Duration.ofSeconds(5), events, clock, io.qubiq.core.disk.DiskReserve.none()),
                java.util.Optional.empty(), id -> { }, java.util.Optional.empty(), clock);
        state = new ConfigState(loaded);
        writes = ConfigWrites.open(state, dir, apply, events, clock);
        channel().submit(IntStream.range(0, ITEMS).mapToObj(ShrinkBelowBacklogTest::message).toList());
        await().atMost(Duration.ofSeconds(30)).until(() -> channel().status().bufferedItems() == ITEMS);
    }

    @AfterEach
    void stop() throws Exception {
        for (OutboundConnection<?> connection : outbound.values()) {
            connection.channel().stop();
            connection.sink().close();
        }
    }

    private static String text(int i) {
        return "%04d %s".formatted(i, "x".repeat(1_000));
    }

    private static MqttMessage message(int i) {
        return MqttMessage.of(TOPIC, text(i), 1, false);
    }

    @SuppressWarnings("unchecked")
    private StoreForwardChannel<MqttMessage> channel() {
        return (StoreForwardChannel<MqttMessage>) outbound.get("mes").channel();
    }

    private ConfigChanges.Outcome put(String key, Object value, Optional<String> onShrink) {
        return writes.put(key, value, state.read().file().revision(), "smaller disk",
                new ConfigChanges.Author("erin", "erin", "api", "127.0.0.1"),
                new ConfigChanges.Choices(onShrink, Optional.empty()));
    }

    @Test
    void withoutAChoiceNothingIsWrittenAndTheAnswerNamesTheBacklogThenKeepKeepsEveryItem() throws Exception {
        String text = Files.readString(file);

        ConfigChanges.Outcome asked = put(MAX_BYTES, 1_048_576, Optional.empty());

        assertThat(asked).isInstanceOfSatisfying(ConfigChanges.ChoiceNeeded.class, question -> {
            assertThat(question.field()).isEqualTo("onShrink");
            assertThat(question.options()).containsExactly("keep", "drop_oldest");
            assertThat(question.backlogs()).singleElement().satisfies(backlog -> {
                assertThat(backlog.connection()).isEqualTo("mes");
                assertThat(backlog.bufferedItems()).isEqualTo(ITEMS);
                assertThat(backlog.maxBytes()).isEqualTo(1_048_576);
            });
        });
        assertThat(Files.readString(file)).as("nothing written").isEqualTo(text);
        assertThat(channel().status().maxBytes()).isEqualTo(4_194_304);
        assertThat(channel().status().bufferedItems()).isEqualTo(ITEMS);

        ConfigChanges.Outcome kept = put(MAX_BYTES, 1_048_576, Optional.of("keep"));

        assertThat(kept).isInstanceOfSatisfying(ConfigChanges.Written.class,
                written -> assertThat(written.applied()).containsExactly("outbound:mes"));
        assertThat(channel().status().maxBytes()).isEqualTo(1_048_576);
        assertThat(channel().status().bufferedItems()).as("kept until drained").isEqualTo(ITEMS);
        assertThat(events.losses()).noneMatch(loss -> loss.reason() == LossReason.MAX_BYTES_SHRUNK);
    }

    @Test
    void theDryRunReportsTheBacklogAndTheChoiceAndChangesNothing() throws Exception {
        String candidate = Files.readString(file).replace("max_bytes: 4194304", "max_bytes: 1048576");

        ConfigAccess.Validation validation = new RunningConfigAccess(state, apply).validate(candidate, "candidate");

        assertThat(validation.valid()).isTrue();
        assertThat(validation.questions()).singleElement().satisfies(question -> {
            assertThat(question.field()).isEqualTo("onShrink");
            assertThat(question.backlogs()).singleElement()
                    .satisfies(backlog -> assertThat(backlog.bufferedItems()).isEqualTo(ITEMS));
        });
        assertThat(channel().status().maxBytes()).isEqualTo(4_194_304);
        assertThat(channel().status().bufferedItems()).isEqualTo(ITEMS);
    }

    @Test
    void dropOldestDropsExactlyTheOldestBeyondTheLimitCountsThemAndTheRestArrivesInOrder() throws Exception {
        ConfigChanges.Outcome dropped = put(MAX_BYTES, 1_048_576, Optional.of("drop_oldest"));

        assertThat(dropped).isInstanceOf(ConfigChanges.Written.class);
        long left = channel().status().bufferedItems();
        assertThat(channel().status().bufferedBytes()).isLessThanOrEqualTo(1_048_576);
        assertThat(left).isLessThan(ITEMS).isGreaterThan(ITEMS / 2);
        List<DataLoss> losses = events.losses().stream().filter(l -> l.reason() == LossReason.MAX_BYTES_SHRUNK).toList();
        assertThat(losses).singleElement().satisfies(loss -> {
            assertThat(loss.items()).isEqualTo(ITEMS - left);
            assertThat(loss.who()).contains("erin");
        });

        assertThat(put("outbound.mes.mqtt.port", broker.port(), Optional.empty()))
                .isInstanceOf(ConfigChanges.Written.class);

        await().atMost(Duration.ofSeconds(30)).until(() -> broker.inbound().on(TOPIC).size() >= left);
        int first = (int) (ITEMS - left);
        assertThat(broker.inbound().on(TOPIC)).as("the newest items, once, in order")
                .containsExactlyElementsOf(IntStream.range(first, ITEMS).mapToObj(ShrinkBelowBacklogTest::text)
                        .toList());
    }
}
