package io.qubiq.app.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.qubiq.app.devices.DeviceConnections;
import io.qubiq.app.lifecycle.GatewayStatus;
import io.qubiq.app.lifecycle.Lifecycle;
import io.qubiq.console.GatewayInfo;
import io.qubiq.core.connector.DeviceConnector;
import io.qubiq.core.connector.TagWriteResult;
import io.qubiq.core.event.DataLoss;
import io.qubiq.core.event.EventPublisher;
import io.qubiq.core.event.LossReason;
import io.qubiq.core.health.ConnectionState;
import io.qubiq.core.health.ConnectionStatus;
import io.qubiq.core.lifecycle.Component;
import io.qubiq.core.tag.TagPath;
import io.qubiq.core.tag.TagPublisher;
import io.qubiq.historian.HistorianStatus;
import io.qubiq.historian.wal.WalTableStatus;
import io.qubiq.pipeline.PipelineStatus;
import io.qubiq.storeforward.ChannelState;
import io.qubiq.storeforward.ChannelStatus;
import io.qubiq.tagbus.OverflowPolicy;
import io.qubiq.tagbus.SubscriptionSpec;
import io.qubiq.tagbus.TagBus;
import java.io.IOException;
import java.lang.ref.WeakReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Every series docs/operations.md lists has a real value after the JVM collected garbage, and the
 * list matches what the gateway registers. The sources are bound the way {@code Gateway} binds
 * them: method references and lambdas made at bind time, which nothing but the meters refers to.
 */
class MetricsSurviveGcTest {

    /** The gateway's own series: everything but the JVM's and the process's. */
    private static final Pattern OURS = Pattern.compile("(qubiq|tagbus|sf|device|historian|pipeline)_[a-z_]+");
    private static final Instant T0 = Instant.parse("2026-12-02T06:00:00Z");

    // Catches: every sf_* gauge reading NaN and every sf_* counter 0.0 after the first GC, while the REST
    // API showed real values, because Micrometer held the bound `channel::status` only weakly; and series
    // the docs list that were never registered (the per-subscriber tag-bus series).
    @Test
    void everyDocumentedSeriesHasARealValueAfterGarbageCollection() throws Exception {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        GatewayMetrics metrics = bindEverything(registry);

        forceGc();

        String scrape = registry.scrape();
        Set<String> documented = documentedSeries();
        assertThat(documented).as("the docs' list, as parsed").hasSizeGreaterThan(30);
        for (String name : documented) {
            List<String> samples = scrape.lines()
                    .filter(line -> line.startsWith(name + "{") || line.startsWith(name + " "))
                    .toList();
            assertThat(samples).as("samples of " + name).isNotEmpty();
            assertThat(samples).as("values of " + name).noneMatch(line -> line.endsWith("NaN"));
        }
        assertThat(scrape).contains("sf_items_in_total{connection=\"db\"} 1000.0")
                .contains("sf_items_refused_total{connection=\"db\"} 7.0")
                .contains("tagbus_queue_capacity_values{subscriber=\"historian\"} 100.0")
                .contains("device_values_received_total{connection=\"plc1\"} 42.0")
                .contains("historian_rows_written_total 900.0")
                .contains("historian_wal_lag_transactions{table=\"history_float\"} 3.0")
                .contains("pipeline_items_refused_total{pipeline=\"batches\"} 4.0");
        assertThat(registeredSeries(scrape)).as("registered series, all documented").isEqualTo(documented);
        metrics.close();
    }

    private static GatewayMetrics bindEverything(PrometheusMeterRegistry registry) {
        GatewayMetrics metrics = new GatewayMetrics(registry);
        Clock clock = Clock.systemUTC();
        TagBus bus = new TagBus(Duration.ofSeconds(1), EventPublisher.none(), clock);
        bus.subscribe(SubscriptionSpec.of("historian", 100, OverflowPolicy.DROP_OLDEST, values -> { }));
        Lifecycle lifecycle = new Lifecycle(clock).add(component("http"));
        metrics.bindLifecycle(lifecycle);
        metrics.bindHealth(new GatewayStatus(new GatewayInfo("Line 3", "1.0", T0), lifecycle, List.of()));
        metrics.bindTagBus(bus);
        metrics.bindTagBusSubscriber(bus, "historian");
        metrics.bindChannel("db", new Channel()::status);
        metrics.bindDevices(new DeviceConnections(Map.of("plc1", new DeviceConnections.Entry(new Device(), "opcua",
                List.of())), value -> { }, EventPublisher.none(), clock));
        metrics.bindHistorian(new Historian()::status, new Historian()::wal, List.of("history_float"));
        metrics.bindPipelines(new Pipelines()::status, List.of("batches"));
        new LossCounters(registry).count(DataLoss.of(T0, "channel", "db", LossReason.REFUSED, 7, 7000, "full"));
        java.nio.file.Path data;
        try {
            data = java.nio.file.Files.createTempDirectory("qubiq-metrics-disk");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        io.qubiq.app.disk.DiskWatcher disks = new io.qubiq.app.disk.DiskWatcher(
                new io.qubiq.app.config.DiskConfig("10%", "5%", 60_000), List.of(data), List.of(data),
                path -> new io.qubiq.core.disk.DiskSpace(500, 1000), EventPublisher.none(), clock);
        disks.checkNow();
        metrics.bindDisk(disks);
        return metrics;
    }

    /** Allocates until a weakly held sentinel is gone: a collection happened (a few, to be sure). */
    private static void forceGc() throws InterruptedException {
        for (int round = 0; round < 3; round++) {
            WeakReference<Object> sentinel = new WeakReference<>(new Object());
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (sentinel.get() != null) {
                assertThat(System.nanoTime()).as("a GC within 10 s").isLessThan(deadline);
                System.gc();
                Thread.sleep(10);
            }
        }
    }

    /** The series named in the "Health and metrics" section of docs/operations.md. */
    static Set<String> documentedSeries() throws IOException {
        String doc = Files.readString(docs().resolve("operations.md"));
        int from = doc.indexOf("## Health and metrics");
        String section = doc.substring(from, doc.indexOf("\n## ", from + 1)).replaceAll("(?s)```.*?```", "");
        Set<String> names = new TreeSet<>();
        Matcher code = Pattern.compile("`([^`]+)`").matcher(section);
        while (code.find()) {
            Matcher name = Pattern.compile("^" + OURS.pattern()).matcher(code.group(1));
            if (name.find() && (code.group(1).length() == name.end() || code.group(1).charAt(name.end()) == '{')) {
                names.add(name.group());
            }
        }
        return names;
    }

    private static Set<String> registeredSeries(String scrape) {
        return scrape.lines().filter(line -> !line.startsWith("#"))
                .map(line -> line.split("[{ ]", 2)[0])
                .filter(name -> OURS.matcher(name).matches())
                .collect(Collectors.toCollection(TreeSet::new));
    }

    private static Path docs() {
        Path dir = Path.of("").toAbsolutePath();
        while (!Files.isDirectory(dir.resolve("docs"))) {
            dir = dir.getParent();
        }
        return dir.resolve("docs");
    }

    private static Component component(String name) {
        return new Component() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public void start() {
            }

            @Override
            public void stop() {
            }
        };
    }

    private static final class Channel {
        ChannelStatus status() {
            return new ChannelStatus("db", ChannelState.DRAINING, ConnectionState.UP, 500, 5, 1000, 50.0, 80, 60,
                    Optional.of(Duration.ofSeconds(3)), 10, 5, 1000, 990, 0, 7, 1, 1001, 1, 100, false, true,
                    Optional.empty(), Optional.empty());
        }
    }

    private static final class Device implements DeviceConnector {
        @Override
        public String id() {
            return "plc1";
        }

        @Override
        public void start(TagPublisher publisher) {
        }

        @Override
        public ConnectionStatus status() {
            return new ConnectionStatus(ConnectionState.UP, T0, Optional.empty());
        }

        @Override
        public CompletableFuture<TagWriteResult> write(TagPath tag, Object value) {
            return CompletableFuture.failedFuture(new UnsupportedOperationException());
        }

        @Override
        public Map<String, Long> counters() {
            return Map.of("values_received", 42L, "reconnects", 2L, "errors", 1L);
        }

        @Override
        public void close() {
        }
    }

    private static final class Historian {
        HistorianStatus status() {
            return new HistorianStatus(1000, 900, 100, 900, 0, 0, 0, 10, 1000, 10_000);
        }

        List<WalTableStatus> wal() {
            return List.of(new WalTableStatus("history_float", true, false, 7, 10, "", "", Optional.empty(), 0, 0,
                    false, false, Optional.of(T0)));
        }
    }

    private static final class Pipelines {
        Optional<PipelineStatus> status(String id) {
            return Optional.of(new PipelineStatus(id, true, "tags a/*", 10, 1, 1, 8, 4, 0, Optional.empty(),
                    Optional.empty(), Optional.empty(), List.of()));
        }
    }
}
