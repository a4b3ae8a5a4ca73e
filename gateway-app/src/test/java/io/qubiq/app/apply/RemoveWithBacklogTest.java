package io.qubiq.app.apply;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.qubiq.app.config.ConfigSource;
import io.qubiq.app.config.ConfigState;
import io.qubiq.app.config.ConfigWrites;
import io.qubiq.app.config.LoadedConfig;
import io.qubiq.app.devices.DeviceConnections;
import io.qubiq.app.outbound.OutboundConnection;
import io.qubiq.app.outbound.OutboundConnections;
import io.qubiq.app.storeforward.OrphanedChannels;
import io.qubiq.console.ConfigChanges;
import io.qubiq.core.connector.DeviceKind;
import io.qubiq.core.event.DataLoss;
import io.qubiq.core.event.LossReason;
import io.qubiq.sink.mqtt.MqttMessage;
import io.qubiq.storeforward.ConnectionMonitor;
import io.qubiq.storeforward.StoreForwardChannel;
import io.qubiq.testkit.RecordingEvents;
import io.qubiq.testkit.mqtt.InboundLog;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An outbound connection removed through the configuration API's write side while its channel holds a
 * backlog (an MQTT connection whose broker is away): without a choice nothing is written and the answer
 * names the backlog and the choices; {@code keep_orphan} keeps the data, listed as an orphan after the
 * next start too (the live listing is {@code OutboundAddedAndRemovedLiveTest}'s); {@code discard} drops it now, every item in the loss ledger with the user.
 * Would catch a removal that silently strands or deletes buffered data, or counts it wrong.
 */
class RemoveWithBacklogTest {

    private static final String TOPIC = InboundLog.PREFIX + "line1/removed";
    private static final String MAX_BYTES = "outbound.mes.store_and_forward.max_bytes";
    private static final int ITEMS = 300;

    @TempDir
    Path dir;
    private final RecordingEvents events = new RecordingEvents();
    private Map<String, OutboundConnection<?>> outbound;
    private ConfigState state;
    private ConfigWrites writes;
    private Path file;

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
        LiveApply apply = new LiveApply(devices, new DeviceKind.Context("gw", dir, clock, events), id -> { }, new io.qubiq.app.outbound.RunningOutbound(outbound, dir, new ConnectionMonitor(clock),
                        Duration.ofSeconds(5), events, clock, io.qubiq.core.disk.DiskReserve.none()),
                java.util.Optional.empty(), id -> { }, java.util.Optional.empty(), clock);
        state = new ConfigState(loaded);
        writes = ConfigWrites.open(state, dir, apply, events, clock);
        channel().submit(IntStream.range(0, ITEMS).mapToObj(RemoveWithBacklogTest::message).toList());
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

    private ConfigChanges.Outcome remove(Optional<String> onRemove) {
        return writes.remove("outbound.mes", state.read().file().revision(), "line retired",
                new ConfigChanges.Author("erin", "erin", "api", "127.0.0.1"),
                new ConfigChanges.Choices(Optional.empty(), onRemove));
    }

    /** What the next start finds: the channel stopped (the removal stopped it already), then a scan. */
    private OrphanedChannels afterRestart() throws Exception {
        outbound.get("mes").channel().stop();
        return OrphanedChannels.scan(dir.resolve("connections"), Set.of());
    }

    @Test
    void withoutAChoiceNothingIsWrittenAndKeepOrphanLeavesTheDataListedAfterTheRestart() throws Exception {
        String text = Files.readString(file);

        ConfigChanges.Outcome asked = remove(Optional.empty());

        assertThat(asked).isInstanceOfSatisfying(ConfigChanges.ChoiceNeeded.class, question -> {
            assertThat(question.field()).isEqualTo("onRemove");
            assertThat(question.options()).containsExactly("drain", "keep_orphan", "discard");
            assertThat(question.backlogs()).singleElement().satisfies(backlog -> {
                assertThat(backlog.connection()).isEqualTo("mes");
                assertThat(backlog.bufferedItems()).isEqualTo(ITEMS);
            });
        });
        assertThat(Files.readString(file)).as("nothing written").isEqualTo(text);

        ConfigChanges.Outcome kept = remove(Optional.of("keep_orphan"));

        assertThat(kept).isInstanceOfSatisfying(ConfigChanges.Written.class,
                written -> assertThat(written.applied()).as("stopped live").containsExactly("outbound:mes"));
        assertThat(Files.readString(file)).doesNotContain("mes:");
        assertThat(events.losses()).isEmpty();
        assertThat(writes.put("http.port", 18080, state.read().file().revision(), "",
                new ConfigChanges.Author("erin", "erin", "api", "127.0.0.1"), ConfigChanges.Choices.none()))
                .as("a later change is not asked about the removal again").isInstanceOf(ConfigChanges.Written.class);
        assertThat(afterRestart().list()).singleElement().satisfies(orphan -> {
            assertThat(orphan.connection()).isEqualTo("mes");
            assertThat(orphan.bufferedItems()).isEqualTo(ITEMS);
        });
    }

    @Test
    void discardDropsTheBacklogNowAndRecordsEveryItemWithTheUser() throws Exception {
        ConfigChanges.Outcome discarded = remove(Optional.of("discard"));

        assertThat(discarded).isInstanceOf(ConfigChanges.Written.class);
        assertThat(channel().status().bufferedItems()).isZero();
        List<DataLoss> losses = events.losses().stream()
                .filter(loss -> loss.reason() == LossReason.CONNECTION_REMOVED).toList();
        assertThat(losses).singleElement().satisfies(loss -> {
            assertThat(loss.items()).isEqualTo(ITEMS);
            assertThat(loss.who()).contains("erin");
            assertThat(loss.connection()).isEqualTo("mes");
        });
        assertThat(afterRestart().list()).as("nothing left to list").isEmpty();
    }

    @Test
    void anImportWithoutTheConnectionAsksTheSameQuestionAndTakesTheChoice() throws Exception {
        String without = "http:\n  port: 0\n";
        ConfigChanges.Author erin = new ConfigChanges.Author("erin", "erin", "import", "127.0.0.1");

        assertThat(writes.importText(without, state.read().file().revision(), "", erin, ConfigChanges.Choices.none()))
                .isInstanceOfSatisfying(ConfigChanges.ChoiceNeeded.class,
                        question -> assertThat(question.field()).isEqualTo("onRemove"));
        assertThat(writes.importText(without, state.read().file().revision(), "", erin,
                new ConfigChanges.Choices(Optional.empty(), Optional.of("keep_orphan"))))
                .isInstanceOf(ConfigChanges.Written.class);
        assertThat(channel().status().bufferedItems()).isEqualTo(ITEMS);
    }
}
