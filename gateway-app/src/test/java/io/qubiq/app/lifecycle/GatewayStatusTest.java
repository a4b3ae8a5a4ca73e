package io.qubiq.app.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import io.qubiq.console.GatewayInfo;
import io.qubiq.core.lifecycle.Component;
import io.qubiq.core.lifecycle.DegradedPart;
import io.qubiq.core.lifecycle.Readiness;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

class GatewayStatusTest {

    private static final GatewayInfo INFO = new GatewayInfo("Line 3", "1.0", Instant.EPOCH);

    private final List<DegradedPart> down = new CopyOnWriteArrayList<>();

    private static Component component(String name, boolean fails) {
        return new Component() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public void start() throws java.io.IOException {
                if (fails) {
                    throw new java.nio.file.AccessDeniedException("/data/connections/db/buffer", null,
                            "Permission denied");
                }
            }

            @Override
            public void stop() {
            }
        };
    }

    @Test
    void readyWhileNothingIsDownAndDegradedWhileADestinationOrDeviceIs() throws Exception {
        Lifecycle lifecycle = new Lifecycle(Clock.systemUTC()).add(component("http", false));
        GatewayStatus status = new GatewayStatus(INFO, lifecycle, List.of(() -> List.copyOf(down)));
        down.add(new DegradedPart("device:plc1", "DOWN", "connection refused"));
        assertThat(status.readiness()).as("not started yet").isEqualTo(Readiness.STARTING);

        lifecycle.startAll();
        assertThat(status.readiness()).isEqualTo(Readiness.DEGRADED);
        assertThat(status.degradedParts()).containsExactly(new DegradedPart("device:plc1", "DOWN", "connection refused"));

        down.clear();
        assertThat(status.readiness()).as("the device came back").isEqualTo(Readiness.READY);
        assertThat(status.degradedParts()).isEmpty();

        lifecycle.stopAll(Duration.ofSeconds(5));
        assertThat(status.readiness()).isEqualTo(Readiness.STOPPING);
    }

    @Test
    void aComponentThatFailedToStartIsListedOnceEvenWhenItsDestinationIsDownToo() throws Exception {
        Lifecycle lifecycle = new Lifecycle(Clock.systemUTC())
                .add(component("http", false))
                .addIsolated(component("channel:db", true));
        GatewayStatus status = new GatewayStatus(INFO, lifecycle, List.of(() -> List.copyOf(down)));
        down.add(new DegradedPart("channel:db", "DOWN", "destination down: connection refused"));

        lifecycle.startAll();

        assertThat(status.readiness()).isEqualTo(Readiness.DEGRADED);
        assertThat(status.degradedParts()).containsExactly(
                new DegradedPart("channel:db", "FAILED", "/data/connections/db/buffer: Permission denied"));
    }
}
