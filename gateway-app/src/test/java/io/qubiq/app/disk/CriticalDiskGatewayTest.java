package io.qubiq.app.disk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.qubiq.app.Gateway;
import io.qubiq.app.TestOperators;
import io.qubiq.app.config.GatewayConfig;
import io.qubiq.app.runtime.DataDirectory;
import io.qubiq.config.ConfigLoader;
import io.qubiq.core.event.AlarmSeverity;
import io.qubiq.core.event.DiskSpaceAlarm;
import io.qubiq.core.lifecycle.Readiness;
import io.qubiq.core.tag.TagPath;
import io.qubiq.core.tag.TagValue;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A whole gateway whose disk is critical by configuration (critical_free "100%": every real disk has
 * less than all of it free): the alarm is raised, /health says DEGRADED naming the disk, and a
 * pipeline's channel to a destination that is down does not grow past the segment it has, dropping
 * its oldest items instead: the watcher is wired to every channel.
 */
class CriticalDiskGatewayTest {

    @TempDir
    Path dir;

    private DataDirectory data;
    private Gateway gateway;

    @AfterEach
    void stop() throws Exception {
        if (gateway != null) {
            gateway.lifecycle().stopAll(Duration.ofSeconds(30));
        }
        if (data != null) {
            data.close();
        }
    }

    @Test
    void aCriticalDiskIsAlarmedDegradedAndStopsTheChannelsFromGrowing() throws Exception {
        int nobody;
        try (ServerSocket socket = new ServerSocket(0)) {
            nobody = socket.getLocalPort();
        }
        String yaml = TestOperators.AUTH_YAML + """
                http:
                  port: 0
                logging:
                  file_enabled: false
                disk:
                  warning_free: "100%%"
                  critical_free: "100%%"
                outbound:
                  down:
                    mqtt: {host: "127.0.0.1", port: %d, connect_timeout_ms: 500}
                    store_and_forward:
                      max_bytes: 1048576
                      segment_bytes: 65536
                      fast_path: false
                pipelines:
                  counts:
                    trigger: {tags: ["line/count"]}
                    outputs:
                      - connection: down
                        mqtt: {topic: "line/count", payload: "value", qos: 1}
                """.formatted(nobody);
        GatewayConfig config = ConfigLoader.parse("test.yaml", yaml, GatewayConfig.class, Map.of());
        data = DataDirectory.open(dir.resolve("data"));
        gateway = new Gateway(config, data, Clock.systemUTC());
        gateway.lifecycle().startAll();

        assertThat(gateway.events().activeAlarms()).filteredOn(DiskSpaceAlarm.class::isInstance).singleElement()
                .satisfies(alarm -> {
                    assertThat(alarm.severity()).isEqualTo(AlarmSeverity.CRITICAL);
                    assertThat(alarm.message()).contains("Disk almost full at " + dir.resolve("data").toAbsolutePath());
                });
        String health = TestOperators.admin(gateway).get("/health").body();
        assertThat(health).contains("\"status\":\"DEGRADED\"", "\"component\":\"disk:" + dir.resolve("data")
                .toAbsolutePath(), "\"state\":\"CRITICAL\"", "\"disks\":[{\"path\":");
        assertThat(gateway.lifecycle().readiness()).isIn(Readiness.READY, Readiness.DEGRADED);

        for (int i = 0; i < 3000; i++) {
            gateway.tagBus().publish(TagValue.good(TagPath.of("line/count"), (long) i, Instant.now()));
        }
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(
                TestOperators.admin(gateway).get("/api/v1/store-forward/down").body())
                .containsPattern("\"itemsDropped\":[1-9]"));
        String status = TestOperators.admin(gateway).get("/api/v1/store-forward/down").body();
        long buffered = Long.parseLong(status.replaceAll(".*\"bufferedBytes\":(\\d+).*", "$1"));
        assertThat(buffered).as("held at one segment: " + status).isLessThanOrEqualTo(65536);
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(
                TestOperators.admin(gateway).get("/api/v1/losses?reason=disk_full").body())
                .contains("\"reason\":\"disk_full\"").contains("down"));
    }
}
