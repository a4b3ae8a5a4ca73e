package io.qubiq.app.apply;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.qubiq.app.config.ConfigApplier;
import io.qubiq.app.config.LoadedConfig;
import io.qubiq.app.devices.DeviceConnections;
import io.qubiq.app.outbound.OutboundConnection;
import io.qubiq.app.outbound.OutboundConnections;
import io.qubiq.core.connector.DeviceKind;
import io.qubiq.core.event.EventPublisher;
import io.qubiq.sink.mqtt.MqttMessage;
import io.qubiq.storeforward.ConnectionMonitor;
import io.qubiq.storeforward.StoreForwardChannel;
import io.qubiq.testkit.mqtt.InboundLog;
import io.qubiq.testkit.mqtt.TestMqttBroker;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An outbound connection changed live against two real MQTT brokers (embedded HiveMQ): the channel
 * keeps its backlog and moves to the new broker, and what cannot change while the channel is open
 * waits for a restart. Would catch a change that loses or repeats the items around the switch, one
 * that keeps writing to the old destination, and one that claims a storage change was applied.
 */
class LiveOutboundApplyTest {

    private static final String TOPIC = InboundLog.PREFIX + "line1/counts";
    static TestMqttBroker first;
    static TestMqttBroker second;

    @TempDir
    Path dir;
    private Map<String, OutboundConnection<?>> outbound;
    private LiveApply apply;

    @BeforeAll
    static void brokers() {
        first = TestMqttBroker.onFreePort().withPublishPolicy(Duration.ofSeconds(1)).start();
        second = TestMqttBroker.onFreePort().withPublishPolicy(Duration.ofSeconds(1)).start();
    }

    @AfterAll
    static void closeBrokers() {
        first.close();
        second.close();
    }

    @AfterEach
    void stop() throws Exception {
        first.start(); // a test that stopped it leaves it running for the next, whatever it asserted
        for (OutboundConnection<?> connection : outbound.values()) {
            connection.channel().stop();
            connection.sink().close();
        }
    }

    private static LoadedConfig config(int port, String storeAndForward) throws Exception {
        return LoadedConfig.bind("test.yaml", "sha256", """
                http:
                  port: 0
                outbound:
                  mes:
                    mqtt:
                      host: 127.0.0.1
                      port: %d
                    store_and_forward:
                      batch_max_items: 20
                %s""".formatted(port, storeAndForward), Map.of());
    }

    private LoadedConfig start(LoadedConfig config) throws Exception {
        Clock clock = Clock.systemUTC();
        outbound = OutboundConnections.build(config.config().outbound(), dir, new ConnectionMonitor(clock),
                Duration.ofSeconds(5), EventPublisher.none(), clock);
        outbound.get("mes").channel().start();
        DeviceConnections devices = new DeviceConnections(Map.of(), value -> { }, EventPublisher.none(), clock);
        apply = new LiveApply(devices, new DeviceKind.Context("gw", dir, clock, EventPublisher.none()), id -> { },
                new io.qubiq.app.outbound.RunningOutbound(outbound, dir, new ConnectionMonitor(clock),
                        Duration.ofSeconds(5), EventPublisher.none(), clock, io.qubiq.core.disk.DiskReserve.none()),
                java.util.Optional.empty(), id -> { }, java.util.Optional.empty(), clock);
        return config;
    }

    @SuppressWarnings("unchecked")
    private StoreForwardChannel<MqttMessage> channel() {
        return (StoreForwardChannel<MqttMessage>) outbound.get("mes").channel();
    }

    private static List<MqttMessage> messages(int from, int to) {
        List<MqttMessage> batch = new ArrayList<>();
        for (int i = from; i < to; i++) {
            batch.add(MqttMessage.of(TOPIC, Integer.toString(i), 1, false));
        }
        return batch;
    }

    @Test
    void aChangedBrokerAddressTakesTheBacklogAlongAndEveryMessageArrivesOnce() throws Exception {
        LoadedConfig before = start(config(first.port(), ""));
        channel().submit(messages(0, 50));
        await().atMost(Duration.ofSeconds(20)).until(() -> first.inbound().on(TOPIC).size() == 50);
        first.stop(); // a backlog builds up while the old broker is away
        channel().submit(messages(50, 120));
        await().atMost(Duration.ofSeconds(20)).until(() -> channel().status().bufferedItems() == 70);

        ConfigApplier.Applied result = apply.apply(before, config(second.port(), ""), Set.of("outbound:mes"));

        assertThat(result.applied()).containsExactly("outbound:mes");
        channel().submit(messages(120, 150));
        await().atMost(Duration.ofSeconds(20)).until(() -> second.inbound().on(TOPIC).size() >= 100);
        List<String> expected = new ArrayList<>();
        for (int i = 50; i < 150; i++) {
            expected.add(Integer.toString(i));
        }
        assertThat(second.inbound().on(TOPIC)).as("the backlog and what came after, once, in order")
                .containsExactlyElementsOf(expected);
        assertThat(first.inbound().on(TOPIC)).hasSize(50);
        // delivered counts a message once its acknowledgement is back, just after the broker recorded it
        await().atMost(Duration.ofSeconds(20)).until(() -> channel().status().itemsDelivered() == 150);
    }

    @Test
    void aLargerLimitAndAnotherSegmentSizeAreAppliedLiveWhileAnotherKindWaitsForARestart() throws Exception {
        LoadedConfig before = start(config(first.port(), ""));
        LoadedConfig bigger = config(first.port(), "      max_bytes: 2147483648\n");
        LoadedConfig otherSegments = config(first.port(), "      segment_bytes: 1048576\n");
        LoadedConfig otherKind = LoadedConfig.bind("test.yaml", "sha256", """
                http:
                  port: 0
                outbound:
                  mes:
                    questdb:
                      address: 127.0.0.1:9000
                """, Map.of());

        assertThat(apply.apply(before, bigger, Set.of("outbound:mes")).applied()).containsExactly("outbound:mes");
        assertThat(channel().status().maxBytes()).isEqualTo(2147483648L);
        assertThat(apply.apply(bigger, otherSegments, Set.of("outbound:mes")).applied())
                .as("another segment size: new segments are written at it").containsExactly("outbound:mes");
        assertThat(channel().settings().segmentBytes()).isEqualTo(1048576);
        assertThat(apply.apply(bigger, otherKind, Set.of("outbound:mes")).needRestart())
                .containsExactly("outbound:mes");
        int already = first.inbound().on(TOPIC).size();
        channel().submit(messages(0, 5));
        await().atMost(Duration.ofSeconds(20)).until(() -> first.inbound().on(TOPIC).size() == already + 5);
    }
}
