package io.qubiq.app.apply;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.qubiq.app.config.ConfigSource;
import io.qubiq.app.config.ConfigState;
import io.qubiq.app.config.ConfigWrites;
import io.qubiq.app.config.LoadedConfig;
import io.qubiq.app.devices.DeviceConnections;
import io.qubiq.app.lifecycle.Lifecycle;
import io.qubiq.app.metrics.GatewayMetrics;
import io.qubiq.app.outbound.OutboundConnection;
import io.qubiq.app.outbound.OutboundConnections;
import io.qubiq.app.outbound.RunningOutbound;
import io.qubiq.app.storeforward.OrphanAttach;
import io.qubiq.app.storeforward.OrphanedChannels;
import io.qubiq.console.ConfigChanges;
import io.qubiq.core.connector.DeviceKind;
import io.qubiq.core.disk.DiskReserve;
import io.qubiq.core.lifecycle.ComponentStatus;
import io.qubiq.sink.mqtt.MqttMessage;
import io.qubiq.storeforward.ConnectionMonitor;
import io.qubiq.storeforward.StoreForwardChannel;
import io.qubiq.testkit.RecordingEvents;
import io.qubiq.testkit.mqtt.InboundLog;
import io.qubiq.testkit.mqtt.TestMqttBroker;
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
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/**
 * Outbound connections added, removed and renamed through the configuration API's write side while the
 * gateway runs, against a real MQTT broker (embedded HiveMQ), with the real lifecycle, metrics, monitor and
 * orphan list wired as the gateway wires them ({@link LiveOutboundWiring}). Would catch an addition that
 * waits for a restart or is not stopped at shutdown, a removal that leaves the channel, its probe or its
 * metrics running, a "drain first" that goes before everything is delivered (or never goes), a backlog kept
 * as an orphan that is not listed until a restart, and a rename whose backlog is not delivered exactly once
 * under the new name.
 */
class OutboundAddedAndRemovedLiveTest {

    private static final int ITEMS = 60;
    static TestMqttBroker broker;

    @TempDir
    Path dir;
    private final RecordingEvents events = new RecordingEvents();
    private final Clock clock = Clock.systemUTC();
    private final ConnectionMonitor monitor = new ConnectionMonitor(clock);
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final Lifecycle lifecycle = new Lifecycle(clock);
    private RunningOutbound running;
    private OrphanedChannels orphans;
    private ConfigState state;
    private ConfigWrites writes;
    private Path file;
    private String topic;

    @BeforeAll
    static void startBroker() {
        broker = TestMqttBroker.onFreePort().withPublishPolicy(Duration.ofSeconds(1)).start();
    }

    @AfterAll
    static void closeBroker() {
        broker.close();
    }

    @BeforeEach
    void start(TestInfo test) throws Exception {
        topic = InboundLog.PREFIX + test.getTestMethod().orElseThrow().getName();
        file = Files.writeString(dir.resolve("gateway.yaml"), """
                http:
                  port: 0
                outbound:
                  mes:
                    mqtt:
                      host: 127.0.0.1
                      port: %d
                    store_and_forward:
                      batch_max_items: 20
                """.formatted(broker.port()));
        LoadedConfig loaded = ConfigSource.loadFile(file, Map.of(), dir);
        running = new RunningOutbound(OutboundConnections.build(loaded.config().outbound(), dir, monitor,
                Duration.ofMillis(200), events, clock), dir, monitor, Duration.ofMillis(200), events, clock,
                DiskReserve.none());
        GatewayMetrics metrics = new GatewayMetrics(registry);
        lifecycle.add(monitor);
        running.all().forEach((id, connection) -> {
            lifecycle.addIsolated(connection.channel());
            metrics.bindChannel(id, connection.channel()::status);
        });
        lifecycle.startAll();
        orphans = OrphanedChannels.scan(dir.resolve("connections"), running.all().keySet());
        running.wire(new LiveOutboundWiring(lifecycle, null, metrics, orphans, Optional.empty()));
        DeviceConnections devices = new DeviceConnections(Map.of(), value -> { }, events, clock);
        LiveApply apply = new LiveApply(devices, new DeviceKind.Context("gw", dir, clock, events), id -> { }, running,
                Optional.empty(), id -> { }, Optional.empty(), clock);
        state = new ConfigState(loaded);
        writes = ConfigWrites.open(state, dir, apply, events, clock);
    }

    @AfterEach
    void stop() {
        broker.start(); // a test that stopped it leaves it running for the next
        List<OutboundConnection<?>> left = List.copyOf(running.all().values());
        lifecycle.stopAll(Duration.ofSeconds(20));
        left.forEach(connection -> connection.sink().close());
        running.close();
    }

    private static final ConfigChanges.Author ERIN = new ConfigChanges.Author("erin", "erin", "api", "127.0.0.1");

    private String revision() {
        return state.read().file().revision();
    }

    @SuppressWarnings("unchecked")
    private StoreForwardChannel<MqttMessage> channel(String id) {
        return (StoreForwardChannel<MqttMessage>) running.get(id).orElseThrow().channel();
    }

    private List<MqttMessage> messages(int from, int to) {
        return IntStream.range(from, to).mapToObj(i -> MqttMessage.of(topic, Integer.toString(i), 1, false)).toList();
    }

    private List<String> numbers(int from, int to) {
        return IntStream.range(from, to).mapToObj(Integer::toString).toList();
    }

    /** {@code mes} with {@code ITEMS} messages buffered while the broker is away. */
    private void backlogWhileTheBrokerIsAway() throws Exception {
        broker.stop();
        await().atMost(Duration.ofSeconds(20)).until(() -> monitor.status("mes").orElseThrow().state()
                == io.qubiq.core.health.ConnectionState.DOWN);
        channel("mes").submit(messages(0, ITEMS));
        await().atMost(Duration.ofSeconds(20)).until(() -> channel("mes").status().bufferedItems() == ITEMS);
    }

    private double meters(String connection) {
        return registry.getMeters().stream()
                .filter(m -> connection.equals(m.getId().getTag("connection"))).count();
    }

    @Test
    void aConnectionAddedStartsAtOnceDeliversAndIsStoppedAtShutdown() throws Exception {
        ConfigChanges.Outcome added = writes.put("outbound.extra", Map.of("mqtt", Map.of("host", "127.0.0.1",
                "port", broker.port())), revision(), "new line", ERIN);

        assertThat(added).isInstanceOfSatisfying(ConfigChanges.Written.class, written -> {
            assertThat(written.applied()).containsExactly("outbound:extra");
            assertThat(written.needRestart()).isEmpty();
        });
        channel("extra").submit(messages(0, 10));
        await().atMost(Duration.ofSeconds(20)).until(() -> broker.inbound().on(topic).size() == 10);
        assertThat(broker.inbound().on(topic)).containsExactlyElementsOf(numbers(0, 10));
        assertThat(monitor.statuses()).containsKey("extra");
        assertThat(meters("extra")).as("its sf_* metrics").isPositive();
        assertThat(lifecycle.statuses()).extracting(ComponentStatus::name).contains(channel("extra").name());
        StoreForwardChannel<MqttMessage> extra = channel("extra");

        lifecycle.stopAll(Duration.ofSeconds(20));

        assertThat(extra.status().state()).isEqualTo(io.qubiq.storeforward.ChannelState.STOPPED);
    }

    @Test
    void aConnectionRemovedWithoutDataStopsAtOnceWithItsProbeAndMetrics() throws Exception {
        StoreForwardChannel<MqttMessage> mes = channel("mes");

        ConfigChanges.Outcome removed = writes.remove("outbound.mes", revision(), "retired", ERIN);

        assertThat(removed).isInstanceOfSatisfying(ConfigChanges.Written.class,
                written -> assertThat(written.applied()).containsExactly("outbound:mes"));
        assertThat(running.all()).isEmpty();
        assertThat(mes.status().state()).isEqualTo(io.qubiq.storeforward.ChannelState.STOPPED);
        assertThat(monitor.statuses()).doesNotContainKey("mes");
        assertThat(meters("mes")).isZero();
        assertThat(lifecycle.statuses()).extracting(ComponentStatus::name).doesNotContain(mes.name());
        assertThat(orphans.list()).isEmpty();
    }

    @Test
    void drainFirstKeepsTheConnectionUntilEverythingIsDeliveredOnceThenItGoes() throws Exception {
        backlogWhileTheBrokerIsAway();

        ConfigChanges.Outcome removed = writes.remove("outbound.mes", revision(), "retired", ERIN,
                new ConfigChanges.Choices(Optional.empty(), Optional.of("drain")));

        assertThat(removed).isInstanceOf(ConfigChanges.Written.class);
        assertThat(Files.readString(file)).doesNotContain("mes:");
        assertThat(running.draining("mes")).isTrue();
        assertThat(running.get("mes")).as("still running while it holds data").isPresent();
        broker.start();
        await().atMost(Duration.ofSeconds(30)).until(() -> running.get("mes").isEmpty());
        assertThat(broker.inbound().on(topic)).as("everything, once, in order").containsExactlyElementsOf(numbers(0, ITEMS));
        assertThat(orphans.list()).as("nothing left to list").isEmpty();
        assertThat(events.losses()).isEmpty();
    }

    @Test
    void aRenameKeptAsAnOrphanIsAttachedToTheNewNameAndDeliveredOnce() throws Exception {
        backlogWhileTheBrokerIsAway();
        String renamed = Files.readString(file).replace("  mes:", "  mes-line2:");

        ConfigChanges.Outcome asked = writes.importText(renamed, revision(), "renamed", ERIN,
                ConfigChanges.Choices.none());
        assertThat(asked).isInstanceOfSatisfying(ConfigChanges.ChoiceNeeded.class, question ->
                assertThat(question.options()).containsExactly("drain", "keep_orphan", "discard"));
        ConfigChanges.Outcome written = writes.importText(renamed, revision(), "renamed", ERIN,
                new ConfigChanges.Choices(Optional.empty(), Optional.of("keep_orphan")));

        assertThat(written).isInstanceOfSatisfying(ConfigChanges.Written.class, w -> {
            assertThat(w.applied()).containsExactlyInAnyOrder("outbound:mes", "outbound:mes-line2");
            assertThat(w.needRestart()).isEmpty();
        });
        assertThat(running.all().keySet()).containsExactly("mes-line2");
        assertThat(orphans.list()).as("listed at once, no restart").singleElement().satisfies(orphan -> {
            assertThat(orphan.connection()).isEqualTo("mes");
            assertThat(orphan.bufferedItems()).isEqualTo(ITEMS);
        });
        assertThat(events.losses()).isEmpty();
        broker.start();
        new OrphanAttach(orphans, running::all, events, clock).attach("mes", "mes-line2", "erin", "127.0.0.1");
        await().atMost(Duration.ofSeconds(30)).until(() -> broker.inbound().on(topic).size() >= ITEMS
                && channel("mes-line2").status().bufferedItems() == 0);
        assertThat(broker.inbound().on(topic)).containsExactlyElementsOf(numbers(0, ITEMS));
        assertThat(orphans.list()).isEmpty();
    }

    @Test
    void aConnectionConfiguredAgainWhileDrainingRunsOnAsConfigured() throws Exception {
        backlogWhileTheBrokerIsAway();
        String before = Files.readString(file);
        writes.remove("outbound.mes", revision(), "retired", ERIN,
                new ConfigChanges.Choices(Optional.empty(), Optional.of("drain")));
        assertThat(running.draining("mes")).isTrue();

        ConfigChanges.Outcome back = writes.importText(before, revision(), "not yet", ERIN, ConfigChanges.Choices.none());

        assertThat(back).isInstanceOf(ConfigChanges.Written.class);
        assertThat(running.draining("mes")).isFalse();
        broker.start();
        await().atMost(Duration.ofSeconds(30)).until(() -> broker.inbound().on(topic).size() == ITEMS);
        Thread.sleep(1_500); // longer than the drain check: a connection still marked would be retired now
        assertThat(running.get("mes")).isPresent();
    }
}
