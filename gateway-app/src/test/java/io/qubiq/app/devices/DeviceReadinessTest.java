package io.qubiq.app.devices;

import static org.assertj.core.api.Assertions.assertThat;

import io.qubiq.app.lifecycle.GatewayStatus;
import io.qubiq.app.lifecycle.Lifecycle;
import io.qubiq.console.GatewayInfo;
import io.qubiq.core.connector.DeviceConnector;
import io.qubiq.core.connector.TagWriteResult;
import io.qubiq.core.health.ConnectionStatus;
import io.qubiq.core.lifecycle.DegradedPart;
import io.qubiq.core.lifecycle.Readiness;
import io.qubiq.core.tag.TagPath;
import io.qubiq.core.tag.TagPublisher;
import io.qubiq.core.time.Ticker;
import io.qubiq.testkit.RecordingEvents;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Ready means collecting: the gateway whose components started is STARTING until every device
 * connection has been connected and subscribed or has failed its first attempt, at most the
 * readiness grace. Each test would catch readiness that trusts a started component (or a bare
 * connection) instead of a subscription, or that waits forever for a device that never answers.
 */
class DeviceReadinessTest {

    private static final Instant SINCE = Instant.parse("2026-01-01T00:00:00Z");
    private static final Duration GRACE = Duration.ofSeconds(30);

    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    private final Ticker ticker = nanos::get;

    /** A connector whose status and subscription the test sets. */
    private static final class ScriptedConnector implements DeviceConnector {
        private final String id;
        volatile ConnectionStatus status = ConnectionStatus.unknown(SINCE);
        volatile boolean subscribed;

        ScriptedConnector(String id) {
            this.id = id;
        }

        @Override
        public String id() {
            return id;
        }

        @Override
        public void start(TagPublisher publisher) {
        }

        @Override
        public ConnectionStatus status() {
            return status;
        }

        @Override
        public boolean subscribed() {
            return subscribed;
        }

        @Override
        public CompletableFuture<TagWriteResult> write(TagPath tag, Object value) {
            return CompletableFuture.failedFuture(new UnsupportedOperationException());
        }

        @Override
        public void close() {
        }
    }

    private DeviceConnections devices;

    private GatewayStatus gateway(ScriptedConnector... connectors) throws Exception {
        Map<String, DeviceConnections.Entry> entries = new LinkedHashMap<>();
        for (ScriptedConnector connector : connectors) {
            entries.put(connector.id(), new DeviceConnections.Entry(connector, "scripted", List.of()));
        }
        devices = new DeviceConnections(entries, value -> { }, new RecordingEvents(),
                Clock.systemUTC(), GRACE, ticker);
        Lifecycle lifecycle = new Lifecycle(Clock.systemUTC());
        lifecycle.addIsolated(devices);
        lifecycle.startAll();
        assertThat(lifecycle.readiness()).as("every component started").isEqualTo(Readiness.READY);
        return new GatewayStatus(new GatewayInfo("test", "0", SINCE), lifecycle, List.of(devices));
    }

    @Test
    void aConnectedDeviceWithoutItsSubscriptionKeepsTheGatewayStartingUntilItIsSubscribed() throws Exception {
        ScriptedConnector plc = new ScriptedConnector("plc1");
        GatewayStatus status = gateway(plc);

        assertThat(status.readiness()).isEqualTo(Readiness.STARTING);
        plc.status = ConnectionStatus.up(SINCE); // session up, subscription not created yet
        assertThat(status.readiness()).isEqualTo(Readiness.STARTING);
        assertThat(status.degradedParts()).extracting(DegradedPart::component, DegradedPart::state)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("device:plc1", "STARTING"));

        plc.subscribed = true;

        assertThat(status.readiness()).isEqualTo(Readiness.READY);
        assertThat(status.degradedParts()).isEmpty();
    }

    @Test
    void aDeviceThatFailsItsFirstAttemptMakesTheGatewayDegradedWithTheReasonAtOnce() throws Exception {
        ScriptedConnector plc = new ScriptedConnector("plc1");
        ScriptedConnector broker = new ScriptedConnector("broker");
        GatewayStatus status = gateway(plc, broker);
        broker.status = ConnectionStatus.up(SINCE);
        broker.subscribed = true;

        plc.status = ConnectionStatus.down(SINCE, "connection refused: 127.0.0.1:4840");

        assertThat(status.readiness()).isEqualTo(Readiness.DEGRADED);
        assertThat(status.degradedParts()).containsExactly(new DegradedPart("device:plc1", "DOWN",
                "disconnected since 2026-01-01T00:00:00Z: connection refused: 127.0.0.1:4840"));
    }

    @Test
    void aDeviceThatNeitherSubscribesNorFailsWithinTheGraceIsADegradedPartAfterIt() throws Exception {
        ScriptedConnector plc = new ScriptedConnector("plc1");
        GatewayStatus status = gateway(plc);
        nanos.addAndGet(GRACE.minusMillis(1).toNanos());
        assertThat(status.readiness()).isEqualTo(Readiness.STARTING);

        nanos.addAndGet(Duration.ofMillis(1).toNanos());

        assertThat(status.readiness()).isEqualTo(Readiness.DEGRADED);
        assertThat(status.degradedParts()).singleElement().satisfies(part -> {
            assertThat(part.component()).isEqualTo("device:plc1");
            assertThat(part.state()).isEqualTo("NOT_SUBSCRIBED");
            assertThat(part.reason()).contains("not collecting 30 s after start");
        });
    }

    @Test
    void aDeviceThatHasBeenCollectingNeverMakesTheGatewayStartingAgainOnlyDegraded() throws Exception {
        ScriptedConnector plc = new ScriptedConnector("plc1");
        GatewayStatus status = gateway(plc);
        plc.status = ConnectionStatus.up(SINCE);
        plc.subscribed = true;
        assertThat(status.readiness()).isEqualTo(Readiness.READY);

        plc.status = ConnectionStatus.down(SINCE, "the session with opc.tcp://plc1:4840 was lost");
        plc.subscribed = false;
        assertThat(status.readiness()).isEqualTo(Readiness.DEGRADED);

        plc.status = ConnectionStatus.up(SINCE); // reconnected, subscriptions not transferred yet
        assertThat(status.readiness()).isEqualTo(Readiness.DEGRADED);
        assertThat(status.degradedParts()).extracting(DegradedPart::state).containsExactly("NOT_SUBSCRIBED");

        plc.subscribed = true;
        assertThat(status.readiness()).isEqualTo(Readiness.READY);
    }

    /** Would catch a connection added while running that makes a READY gateway STARTING again, or shows DOWN at once. */
    @Test
    void aConnectionAddedWhileRunningIsStartingOnItsOwnGraceWithoutTakingTheGatewayBackToStarting() throws Exception {
        ScriptedConnector plc = new ScriptedConnector("plc1");
        GatewayStatus status = gateway(plc);
        plc.status = ConnectionStatus.up(SINCE);
        plc.subscribed = true;
        nanos.addAndGet(Duration.ofMinutes(5).toNanos()); // long past the gateway's own grace
        assertThat(status.readiness()).isEqualTo(Readiness.READY);

        ScriptedConnector added = new ScriptedConnector("plc2");
        devices.replace("plc2", java.util.Optional.of(new DeviceConnections.Entry(added, "scripted", List.of())));

        assertThat(status.readiness()).as("a live change never makes the gateway STARTING again")
                .isEqualTo(Readiness.DEGRADED);
        assertThat(status.degradedParts()).extracting(DegradedPart::component, DegradedPart::state)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("device:plc2", "STARTING"));
        nanos.addAndGet(GRACE.toNanos());
        assertThat(status.degradedParts()).singleElement().satisfies(part ->
                assertThat(part.reason()).contains("not collecting 30 s after it was changed"));
        added.status = ConnectionStatus.up(SINCE);
        added.subscribed = true;
        assertThat(status.readiness()).isEqualTo(Readiness.READY);

        devices.replace("plc2", java.util.Optional.empty());
        assertThat(devices.ids()).containsExactly("plc1");
        assertThat(status.degradedParts()).isEmpty();
    }
}
