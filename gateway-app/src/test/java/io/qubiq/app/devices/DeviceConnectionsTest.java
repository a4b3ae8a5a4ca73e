package io.qubiq.app.devices;

import static org.assertj.core.api.Assertions.assertThat;

import io.qubiq.core.connector.DeviceConnector;
import io.qubiq.core.connector.TagWriteResult;
import io.qubiq.core.health.ConnectionStatus;
import io.qubiq.core.lifecycle.DegradedPart;
import io.qubiq.core.tag.TagPath;
import io.qubiq.core.tag.TagPublisher;
import io.qubiq.testkit.RecordingEvents;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class DeviceConnectionsTest {

    private static final Instant SINCE = Instant.parse("2026-01-01T00:00:00Z");

    /** A connector whose start throws {@code failure} (when given) and whose status is {@code status}. */
    private static final class FakeConnector implements DeviceConnector {
        private final String id;
        private final RuntimeException failure;
        private final ConnectionStatus status;
        boolean started;

        FakeConnector(String id, RuntimeException failure, ConnectionStatus status) {
            this.id = id;
            this.failure = failure;
            this.status = status;
        }

        @Override
        public String id() {
            return id;
        }

        @Override
        public void start(TagPublisher publisher) {
            if (failure != null) {
                throw failure;
            }
            started = true;
        }

        @Override
        public ConnectionStatus status() {
            return status;
        }

        @Override
        public CompletableFuture<TagWriteResult> write(TagPath tag, Object value) {
            return CompletableFuture.failedFuture(new UnsupportedOperationException());
        }

        @Override
        public void close() {
        }
    }

    @Test
    void aConnectionThatFailsToStartIsFailedWithItsReasonAndTheOthersStillStart() {
        FakeConnector broken = new FakeConnector("a-broken", new IllegalStateException(
                "cannot create the PKI directory /data/pki/a-broken: Permission denied"), ConnectionStatus.unknown(SINCE));
        FakeConnector down = new FakeConnector("b-down", null, ConnectionStatus.down(SINCE, "connection refused"));
        FakeConnector up = new FakeConnector("c-up", null, ConnectionStatus.up(SINCE));
        Map<String, DeviceConnections.Entry> entries = new LinkedHashMap<>();
        for (FakeConnector connector : List.of(broken, down, up)) {
            entries.put(connector.id(), new DeviceConnections.Entry(connector, "fake", List.of()));
        }
        DeviceConnections devices = new DeviceConnections(entries, value -> { }, new RecordingEvents(),
                Clock.systemUTC());

        devices.start();

        assertThat(down.started).isTrue();
        assertThat(up.started).isTrue();
        assertThat(devices.degradedParts()).containsExactly(
                new DegradedPart("device:a-broken", "FAILED",
                        "cannot create the PKI directory /data/pki/a-broken: Permission denied"),
                new DegradedPart("device:b-down", "DOWN", "disconnected since 2026-01-01T00:00:00Z: connection refused"));
    }
}
