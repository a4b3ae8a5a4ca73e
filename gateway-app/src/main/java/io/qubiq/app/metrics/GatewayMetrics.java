package io.qubiq.app.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.qubiq.app.lifecycle.Lifecycle;
import io.qubiq.console.DeviceAccess;
import io.qubiq.console.StatusView;
import io.qubiq.core.lifecycle.ComponentState;
import io.qubiq.core.lifecycle.ComponentStatus;
import io.qubiq.historian.HistorianStatus;
import io.qubiq.historian.wal.WalTableStatus;
import io.qubiq.pipeline.PipelineStatus;
import io.qubiq.storeforward.ChannelStatus;
import io.qubiq.tagbus.SubscriberStats;
import io.qubiq.tagbus.TagBus;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

/**
 * Binds the gateway's meters. Names are nouns with units and the same for every instance of a
 * kind (one {@code subscriber}, {@code connection}, {@code pipeline} or {@code component} tag tells
 * them apart). Values are read at scrape time from the owners' stats, so the hot paths keep their
 * own counters and never call Micrometer. Everything a meter reads is held strongly by this
 * instance ({@link Meters}): keep it as long as the registry is scraped.
 *
 * <p>Threading: bound from the wiring thread; read from scrape threads.
 */
public final class GatewayMetrics {

    private final MeterRegistry registry;
    private final Meters meters;
    private JvmGcMetrics gcMetrics;

    public GatewayMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.meters = new Meters(registry);
    }

    public void bindJvm() {
        new ClassLoaderMetrics().bindTo(registry);
        new JvmMemoryMetrics().bindTo(registry);
        gcMetrics = new JvmGcMetrics();
        gcMetrics.bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        new FileDescriptorMetrics().bindTo(registry);
    }

    /**
     * {@code qubiq_degraded_parts}: how many parts are down now (failed components, disconnected
     * destinations and devices, refusing channels), as /health lists them; above 0 while the gateway
     * runs DEGRADED.
     */
    public void bindHealth(StatusView status) {
        meters.gauge("qubiq_degraded_parts", "Parts of the gateway that are down: failed components, disconnected"
                + " destinations and devices, refusing channels (listed on /health)", Tags.empty(), status,
                view -> view.degradedParts().size());
    }

    /** {@code qubiq_component_running{component}}: 1 while RUNNING, else 0. */
    public void bindLifecycle(Lifecycle lifecycle) {
        for (ComponentStatus status : lifecycle.statuses()) {
            String name = status.name();
            meters.gauge("qubiq_component_running", "1 while the component is running, 0 otherwise",
                    Tags.of("component", name), lifecycle, l -> running(l, name));
        }
    }

    private static double running(Lifecycle lifecycle, String name) {
        return lifecycle.statuses().stream()
                .anyMatch(s -> s.name().equals(name) && s.state() == ComponentState.RUNNING) ? 1 : 0;
    }

    public void bindTagBus(TagBus bus) {
        meters.counter("tagbus_values_published", "Tag values published to the bus", Tags.empty(), bus,
                b -> b.stats().published());
        meters.gauge("tagbus_tags", "Distinct tags in the latest-value table", Tags.empty(), bus,
                b -> b.stats().tags());
    }

    /**
     * Per-subscriber meters, tagged {@code subscriber}; call once for each subscription the
     * application creates (before or after it subscribes: until then they read 0).
     */
    public void bindTagBusSubscriber(TagBus bus, String subscriber) {
        Tags tags = Tags.of("subscriber", subscriber);
        meters.counter("tagbus_values_delivered", "Values handed to the subscriber's consumer", tags, bus,
                b -> stat(b, subscriber, SubscriberStats::delivered));
        meters.counter("tagbus_values_dropped", "Values discarded by the subscriber's overflow policy", tags, bus,
                b -> stat(b, subscriber, SubscriberStats::dropped));
        meters.counter("tagbus_values_failed", "Values in batches whose consumer threw", tags, bus,
                b -> stat(b, subscriber, SubscriberStats::failed));
        meters.counter("tagbus_consumer_errors", "Consumer calls that threw", tags, bus,
                b -> stat(b, subscriber, SubscriberStats::consumerErrors));
        meters.gauge("tagbus_queue_values", "Values waiting in the subscriber's queue", tags, bus,
                b -> stat(b, subscriber, SubscriberStats::queued));
        meters.gauge("tagbus_queue_capacity_values", "The subscriber's queue capacity", tags, bus,
                b -> stat(b, subscriber, SubscriberStats::capacity));
    }

    private static double stat(TagBus bus, String subscriber, ToDoubleFunction<SubscriberStats> value) {
        return bus.stats().subscribers().stream()
                .filter(s -> s.name().equals(subscriber))
                .mapToDouble(value)
                .findFirst()
                .orElse(0);
    }

    /**
     * The store-and-forward meters of one channel ({@code sf_*}, tagged {@code connection}), read from
     * its status at scrape time; {@code status} is held for as long as this instance lives.
     */
    public void bindChannel(String connection, Supplier<ChannelStatus> status) {
        ChannelMeters.bind(meters, connection, status);
    }

    /** Removes the {@code sf_*} meters of {@code connection}, removed while the gateway runs. */
    public void unbindChannel(String connection) {
        meters.registry().getMeters().stream()
                .filter(meter -> meter.getId().getName().startsWith("sf_")
                        && connection.equals(meter.getId().getTag("connection")))
                .forEach(meters.registry()::remove);
    }

    /** {@code device_*{connection}} for each configured device connection. */
    public void bindDevices(DeviceAccess devices) {
        for (DeviceAccess.Device device : devices.devices()) {
            DataPathMeters.bindDevice(meters, devices, device.id());
        }
    }

    /** {@code device_*{connection}} of one connection, added while the gateway runs. */
    public void bindDevice(DeviceAccess devices, String id) {
        DataPathMeters.bindDevice(meters, devices, id);
    }

    /** {@code historian_*}, and {@code historian_wal_*{table}} for each history table. */
    public void bindHistorian(Supplier<HistorianStatus> status, Supplier<List<WalTableStatus>> wal,
                              List<String> tables) {
        DataPathMeters.bindHistorian(meters, status);
        for (String table : tables) {
            DataPathMeters.bindWal(meters, wal, table);
        }
    }

    /** {@code pipeline_*{pipeline}} for each configured pipeline; one that is not running reads 0. */
    public void bindPipelines(Function<String, Optional<PipelineStatus>> statuses, Collection<String> ids) {
        for (String id : ids) {
            DataPathMeters.bindPipeline(meters, statuses, id);
        }
    }

    /**
     * {@code qubiq_disk_free_bytes{path}}, {@code qubiq_disk_total_bytes{path}} and
     * {@code qubiq_disk_state{path}} (0 ok, 1 warning, 2 critical) of each watched directory, from
     * its last sample; {@code qubiq_dir_used_bytes{path}} of those whose own size is measured (the
     * embedded QuestDB's).
     */
    public void bindDisk(io.qubiq.app.disk.DiskWatcher watcher) {
        for (io.qubiq.core.disk.DiskSpaceCheck check : watcher.checks()) {
            Tags tags = Tags.of("path", check.path());
            java.nio.file.Path dir = java.nio.file.Path.of(check.path());
            if (watcher.measures(dir)) {
                meters.gauge("qubiq_dir_used_bytes", "Bytes the watched directory itself holds (the embedded QuestDB's"
                        + " data)", tags, dir, d -> watcher.usedBytes(d).orElse(0L));
            }
            meters.gauge("qubiq_disk_free_bytes", "Free bytes of the watched directory's file system", tags, check,
                    c -> c.lastSample().map(io.qubiq.core.disk.DiskSpace::freeBytes).orElse(0L));
            meters.gauge("qubiq_disk_total_bytes", "Size of the watched directory's file system", tags, check,
                    c -> c.lastSample().map(io.qubiq.core.disk.DiskSpace::totalBytes).orElse(0L));
            meters.gauge("qubiq_disk_state", "0 ok, 1 below disk.warning_free, 2 below disk.critical_free", tags,
                    check, c -> c.state().level());
        }
    }

    public void close() {
        if (gcMetrics != null) {
            gcMetrics.close();
        }
    }
}
