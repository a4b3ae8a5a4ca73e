package io.qubiq.app.disk;

import static org.assertj.core.api.Assertions.assertThat;

import io.qubiq.app.config.DiskConfig;
import io.qubiq.app.config.GatewayConfig;
import io.qubiq.config.ConfigException;
import io.qubiq.config.ConfigLoader;
import io.qubiq.config.ConfigProblem;
import io.qubiq.core.disk.DiskSpace;
import io.qubiq.core.disk.DiskState;
import io.qubiq.core.event.AlarmEvent;
import io.qubiq.core.event.AuditEvent;
import io.qubiq.core.event.DataLoss;
import io.qubiq.core.event.EventPublisher;
import io.qubiq.core.lifecycle.DegradedPart;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DiskWatcherTest {

    @TempDir
    Path data;

    private final Map<Path, DiskSpace> space = new ConcurrentHashMap<>();
    private final List<AlarmEvent> alarms = new CopyOnWriteArrayList<>();
    private final EventPublisher events = new EventPublisher() {
        @Override
        public void alarm(AlarmEvent event) {
            alarms.add(event);
        }

        @Override
        public void audit(AuditEvent event) {
        }

        @Override
        public void lost(DataLoss loss) {
        }
    };

    private DiskWatcher watcher(DiskConfig config, Path... dirs) {
        return new DiskWatcher(config, List.of(dirs), path -> {
            DiskSpace sample = space.get(path);
            if (sample == null) {
                throw new IOException("no such file store: " + path);
            }
            return sample;
        }, events, Clock.systemUTC());
    }

    @Test
    void criticalDiskIsAnsweredToTheChannelsAndListedOnHealth() throws Exception {
        DiskWatcher watcher = watcher(new DiskConfig("10%", "5%", 60_000), data);
        space.put(data, new DiskSpace(500, 1000));
        watcher.start();
        try {
            assertThat(watcher.critical()).isFalse();
            assertThat(watcher.degradedParts()).isEmpty();

            space.put(data, new DiskSpace(80, 1000));
            watcher.checkNow();
            assertThat(watcher.critical()).as("a warning is not critical").isFalse();
            assertThat(watcher.degradedParts()).isEmpty();

            space.put(data, new DiskSpace(40, 1000));
            watcher.checkNow();
            assertThat(watcher.critical()).isTrue();
            assertThat(watcher.degradedParts()).singleElement().satisfies(part -> {
                assertThat(part.component()).isEqualTo("disk:" + data.toAbsolutePath().normalize());
                assertThat(part.state()).isEqualTo("CRITICAL");
                assertThat(part.reason()).contains("disk almost full").contains("40 bytes (4.0 %) free");
            });

            space.put(data, new DiskSpace(900, 1000));
            watcher.checkNow();
            assertThat(watcher.critical()).isFalse();
            assertThat(watcher.degradedParts()).isEmpty();
            assertThat(alarms).extracting(AlarmEvent::active).containsExactly(true, true, false);
        } finally {
            watcher.stop();
        }
    }

    @Test
    void metricsAndHealthShowEachWatchedDirectorysLastSample() {
        DiskWatcher watcher = watcher(new DiskConfig("10%", "5%", 60_000), data);
        space.put(data, new DiskSpace(80, 1000));
        watcher.checkNow();
        io.micrometer.prometheusmetrics.PrometheusMeterRegistry registry =
                new io.micrometer.prometheusmetrics.PrometheusMeterRegistry(
                        io.micrometer.prometheusmetrics.PrometheusConfig.DEFAULT);
        new io.qubiq.app.metrics.GatewayMetrics(registry).bindDisk(watcher);
        String path = data.toAbsolutePath().normalize().toString();
        assertThat(registry.scrape())
                .contains("qubiq_disk_free_bytes{path=\"" + path + "\"} 80.0")
                .contains("qubiq_disk_total_bytes{path=\"" + path + "\"} 1000.0")
                .contains("qubiq_disk_state{path=\"" + path + "\"} 1.0");
        assertThat(watcher.statuses()).containsExactly(new io.qubiq.console.DiskStatus(path, "WARNING", 80, 1000));
    }

    @Test
    void theEmbeddedQuestDbsOwnSizeIsMeasured() throws Exception {
        Path questdb = java.nio.file.Files.createDirectories(data.resolve("questdb").resolve("db").resolve("t1"));
        java.nio.file.Files.write(questdb.resolve("value.d"), new byte[4096]);
        java.nio.file.Files.write(questdb.resolve("ts.d"), new byte[1000]);
        Path dir = data.resolve("questdb");
        DiskWatcher watcher = new DiskWatcher(new DiskConfig("10%", "5%", 60_000), List.of(data, dir), List.of(dir),
                path -> new DiskSpace(500, 1000), events, Clock.systemUTC());
        watcher.checkNow();
        assertThat(watcher.measures(dir)).isTrue();
        assertThat(watcher.measures(data)).isFalse();
        assertThat(watcher.usedBytes(dir)).contains(5096L);
        assertThat(watcher.statuses()).extracting(io.qubiq.console.DiskStatus::usedBytes)
                .containsExactly(java.util.Optional.empty(), java.util.Optional.of(5096L));
        io.micrometer.prometheusmetrics.PrometheusMeterRegistry registry =
                new io.micrometer.prometheusmetrics.PrometheusMeterRegistry(
                        io.micrometer.prometheusmetrics.PrometheusConfig.DEFAULT);
        new io.qubiq.app.metrics.GatewayMetrics(registry).bindDisk(watcher);
        assertThat(registry.scrape()).contains("qubiq_dir_used_bytes{path=\"" + dir.toAbsolutePath().normalize()
                + "\"} 5096.0").doesNotContain("qubiq_dir_used_bytes{path=\"" + data.toAbsolutePath().normalize()
                + "\"}");
    }

    @Test
    void aDirectoryNotCreatedYetIsSampledAtItsNearestParent() {
        DiskWatcher watcher = watcher(new DiskConfig("1GB", "100MB", 60_000), data, data.resolve("questdb"));
        space.put(data, new DiskSpace(50_000_000, 1_000_000_000_000L));
        watcher.checkNow();
        assertThat(watcher.checks()).extracting(c -> c.state()).containsExactly(DiskState.CRITICAL, DiskState.CRITICAL);
        assertThat(watcher.checks().get(1).path()).endsWith("questdb");
    }

    @Test
    void aSampleThatFailsLeavesTheStateAsItWas() {
        DiskWatcher watcher = watcher(new DiskConfig("10%", "5%", 60_000), data);
        space.put(data, new DiskSpace(10, 1000));
        watcher.checkNow();
        space.clear();
        watcher.checkNow();
        assertThat(watcher.critical()).isTrue();
        assertThat(alarms).hasSize(1);
    }

    @Test
    void theSamplerRunsOnItsOwnEveryInterval() throws Exception {
        DiskWatcher watcher = watcher(new DiskConfig("10%", "5%", 100), data);
        space.put(data, new DiskSpace(500, 1000));
        watcher.start();
        try {
            space.put(data, new DiskSpace(10, 1000));
            long deadline = System.nanoTime() + 5_000_000_000L;
            while (!watcher.critical() && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertThat(watcher.critical()).isTrue();
        } finally {
            watcher.stop();
        }
    }

    @Test
    void thresholdsAreDefaultedAndEachMistakeNamesItsKey() throws Exception {
        GatewayConfig defaults = ConfigLoader.parse("empty.yaml", "", GatewayConfig.class, Map.of());
        assertThat(defaults.disk()).isEqualTo(new DiskConfig("10%", "5%", 5000));

        GatewayConfig sized = ConfigLoader.parse("g.yaml", "disk:\n  warning_free: 20GiB\n  critical_free: \"2 GiB\"\n",
                GatewayConfig.class, Map.of());
        assertThat(sized.disk().critical().bytes()).contains(2L << 30);

        List<ConfigProblem> problems = problems("disk:\n  warning_free: lots\n  critical_free: 200%\n");
        assertThat(problems).extracting(ConfigProblem::keyPath)
                .containsExactlyInAnyOrder("disk.warning_free", "disk.critical_free");
        assertThat(problems.toString()).contains("expected a percentage such as \"10%\" or a size such as \"2GiB\"")
                .contains("between 0 and 100");

        assertThat(problems("disk:\n  warning_free: 5%\n  critical_free: 10%\n")).singleElement()
                .satisfies(p -> {
                    assertThat(p.keyPath()).isEqualTo("disk.critical_free");
                    assertThat(p.message()).contains("must not be more than warning_free");
                });
    }

    private static List<ConfigProblem> problems(String yaml) {
        try {
            ConfigLoader.parse("g.yaml", yaml, GatewayConfig.class, Map.of());
            throw new AssertionError("expected problems for " + yaml);
        } catch (ConfigException e) {
            return e.problems();
        }
    }
}
