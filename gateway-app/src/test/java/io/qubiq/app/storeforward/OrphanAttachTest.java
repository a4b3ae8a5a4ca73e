package io.qubiq.app.storeforward;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.qubiq.app.config.LoadedConfig;
import io.qubiq.app.outbound.OutboundConnection;
import io.qubiq.app.outbound.OutboundConnections;
import io.qubiq.console.RequestFailure;
import io.qubiq.core.event.AuditAction;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An orphan attached to a running MQTT connection (a real, embedded HiveMQ broker) is delivered by it:
 * every orphaned message once, in order, ahead of what the connection is given afterwards. An attach to
 * a connection that holds items, or of another kind, is refused and changes nothing. Would catch an
 * attach that loses, repeats or reorders the orphan's items, one that mixes them into a backlog, and
 * one that hands SQL rows to an MQTT broker.
 */
class OrphanAttachTest {

    private static final String TOPIC = InboundLog.PREFIX + "line1/orphans";
    static TestMqttBroker broker;

    @TempDir
    Path data;
    private final RecordingEvents events = new RecordingEvents();
    private final List<OutboundConnection<?>> started = new ArrayList<>();

    @BeforeAll
    static void startBroker() {
        broker = TestMqttBroker.onFreePort().withPublishPolicy(Duration.ofSeconds(1)).start();
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    @AfterEach
    void stop() throws Exception {
        for (OutboundConnection<?> connection : started) {
            connection.channel().stop();
            connection.sink().close();
        }
    }

    private static int deadPort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private Map<String, OutboundConnection<?>> connection(String id, int port) throws Exception {
        LoadedConfig config = LoadedConfig.bind("test.yaml", "sha256", """
                http:
                  port: 0
                outbound:
                  %s:
                    mqtt:
                      host: 127.0.0.1
                      port: %d
                    store_and_forward:
                      batch_max_items: 20
                """.formatted(id, port), Map.of());
        Clock clock = Clock.systemUTC();
        Map<String, OutboundConnection<?>> outbound = OutboundConnections.build(config.config().outbound(), data,
                new ConnectionMonitor(clock), Duration.ofSeconds(5), events, clock);
        outbound.get(id).channel().start();
        started.add(outbound.get(id));
        return outbound;
    }

    @SuppressWarnings("unchecked")
    private static StoreForwardChannel<MqttMessage> channel(Map<String, OutboundConnection<?>> outbound, String id) {
        return (StoreForwardChannel<MqttMessage>) outbound.get(id).channel();
    }

    private static List<MqttMessage> messages(int from, int to) {
        return IntStream.range(from, to).mapToObj(i -> MqttMessage.of(TOPIC, Integer.toString(i), 1, false)).toList();
    }

    /** A connection named {@code id} that could not deliver {@code count} messages, then was renamed away. */
    private void orphan(String id, int count) throws Exception {
        Map<String, OutboundConnection<?>> old = connection(id, deadPort());
        channel(old, id).submit(messages(0, count));
        await().atMost(Duration.ofSeconds(20)).until(() -> channel(old, id).status().bufferedItems() == count);
        old.get(id).channel().stop();
        old.get(id).sink().close();
        started.remove(old.get(id));
    }

    @Test
    void anAttachedOrphanIsDeliveredOnceInOrderAheadOfNewMessages() throws Exception {
        orphan("mes-old", 80);
        Map<String, OutboundConnection<?>> outbound = connection("mes", broker.port());
        OrphanedChannels orphans = OrphanedChannels.scan(data.resolve("connections"), Set.of("mes"));
        assertThat(orphans.list()).singleElement().satisfies(o -> assertThat(o.bufferedItems()).isEqualTo(80));

        new OrphanAttach(orphans, () -> outbound, events, Clock.systemUTC()).attach("mes-old", "mes", "ada", "127.0.0.1");
        channel(outbound, "mes").submit(messages(80, 100));

        await().atMost(Duration.ofSeconds(30)).until(() -> broker.inbound().on(TOPIC).size() >= 100);
        List<String> expected = IntStream.range(0, 100).mapToObj(Integer::toString).toList();
        assertThat(broker.inbound().on(TOPIC)).as("every orphaned message once, in order, then the new ones")
                .containsExactlyElementsOf(expected);
        await().atMost(Duration.ofSeconds(20)).until(() -> channel(outbound, "mes").status().bufferedItems() == 0);
        Thread.sleep(500);
        assertThat(broker.inbound().on(TOPIC)).hasSize(100);
        assertThat(orphans.list()).isEmpty();
        assertThat(data.resolve("connections/mes-old")).doesNotExist();
        assertThat(events.audits()).anySatisfy(audit -> {
            assertThat(audit.action()).isEqualTo(AuditAction.ORPHAN_ATTACH);
            assertThat(audit.target()).isEqualTo("mes-old");
        });
    }

    @Test
    void anAttachToAConnectionHoldingItemsOrOfAnotherKindIsRefusedAndChangesNothing() throws Exception {
        orphan("mes-old", 10);
        Map<String, OutboundConnection<?>> outbound = connection("mes", deadPort());
        channel(outbound, "mes").submit(messages(500, 503));
        await().atMost(Duration.ofSeconds(20)).until(() -> channel(outbound, "mes").status().bufferedItems() == 3);
        OrphanedChannels orphans = OrphanedChannels.scan(data.resolve("connections"), Set.of("mes"));
        OrphanAttach attach = new OrphanAttach(orphans, () -> outbound, events, Clock.systemUTC());

        assertThatThrownBy(() -> attach.attach("mes-old", "mes", "ada", "127.0.0.1"))
                .isInstanceOf(RequestFailure.Conflict.class).hasMessageContaining("3 undelivered");
        assertThat(channel(outbound, "mes").status().bufferedItems()).isEqualTo(3);
        assertThat(orphans.list()).singleElement().satisfies(o -> assertThat(o.bufferedItems()).isEqualTo(10));

        Files.writeString(data.resolve("connections/mes-old/kind"), "sql\n");
        assertThatThrownBy(() -> attach.attach("mes-old", "mes", "ada", "127.0.0.1"))
                .isInstanceOf(RequestFailure.Conflict.class).hasMessageContaining("sql");
        assertThatThrownBy(() -> attach.attach("mes-old", "nowhere", "ada", "127.0.0.1"))
                .isInstanceOf(RequestFailure.NotFound.class);
        assertThat(orphans.find("mes-old").orElseThrow().bufferedItems()).isEqualTo(10);
    }
}
