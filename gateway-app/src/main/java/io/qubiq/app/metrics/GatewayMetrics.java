package io.qubiq.app.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
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
import io.qubiq.console.StatusView;
import io.qubiq.core.lifecycle.ComponentState;
import io.qubiq.core.lifecycle.ComponentStatus;
import io.qubiq.storeforward.ChannelState;
import io.qubiq.storeforward.ChannelStatus;
import io.qubiq.tagbus.SubscriberStats;
import io.qubiq.tagbus.TagBus;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

/**
 * Binds the gateway's meters. Names are nouns with units and the same for every instance of a
 * kind (one {@code subscriber} or {@code component} tag tells them apart). Values are read at
 * scrape time from the owners' stats, so the hot paths keep their own counters and never call
 * Micrometer.
 */
public final class GatewayMetrics {

    private final MeterRegistry registry;
    private JvmGcMetrics gcMetrics;

    public GatewayMetrics(MeterRegistry registry) {
        this.registry = registry;
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
     * destinations and devices), as /health lists them; above 0 while the gateway runs DEGRADED.
     */
    public void bindHealth(StatusView status) {
        Gauge.builder("qubiq_degraded_parts", status, view -> view.degradedParts().size())
                .description("Parts of the gateway that are down: failed components, disconnected destinations"
                        + " and devices (listed on /health)")
                .register(registry);
    }

    /** {@code qubiq_component_running{component}}: 1 while RUNNING, else 0. */
    public void bindLifecycle(Lifecycle lifecycle) {
        for (ComponentStatus status : lifecycle.statuses()) {
            String name = status.name();
            Gauge.builder("qubiq_component_running", lifecycle, l -> running(l, name))
                    .description("1 while the component is running, 0 otherwise")
                    .tag("component", name)
                    .register(registry);
        }
    }

    private static double running(Lifecycle lifecycle, String name) {
        return lifecycle.statuses().stream()
                .anyMatch(s -> s.name().equals(name) && s.state() == ComponentState.RUNNING) ? 1 : 0;
    }

    public void bindTagBus(TagBus bus) {
        FunctionCounter.builder("tagbus_values_published", bus, b -> b.stats().published())
                .description("Tag values published to the bus")
                .register(registry);
        Gauge.builder("tagbus_tags", bus, b -> b.stats().tags())
                .description("Distinct tags in the latest-value table")
                .register(registry);
    }

    /** Per-subscriber meters; call once for each subscription the application creates. */
    public void bindTagBusSubscriber(TagBus bus, String subscriber) {
        counter("tagbus_values_delivered", "Values handed to the subscriber's consumer", bus, subscriber,
                SubscriberStats::delivered);
        counter("tagbus_values_dropped", "Values discarded by the subscriber's overflow policy", bus, subscriber,
                SubscriberStats::dropped);
        counter("tagbus_consumer_errors", "Consumer calls that threw", bus, subscriber,
                SubscriberStats::consumerErrors);
        Gauge.builder("tagbus_queue_values", bus, b -> stat(b, subscriber, SubscriberStats::queued))
                .description("Values waiting in the subscriber's queue")
                .tag("subscriber", subscriber)
                .register(registry);
    }

    private void counter(String name, String description, TagBus bus, String subscriber,
                         ToDoubleFunction<SubscriberStats> value) {
        FunctionCounter.builder(name, bus, b -> stat(b, subscriber, value))
                .description(description)
                .tag("subscriber", subscriber)
                .register(registry);
    }

    private static double stat(TagBus bus, String subscriber, ToDoubleFunction<SubscriberStats> value) {
        return bus.stats().subscribers().stream()
                .filter(s -> s.name().equals(subscriber))
                .mapToDouble(value)
                .findFirst()
                .orElse(0);
    }

    /**
     * The store-and-forward meters of one channel, read from its status at scrape time. Every channel
     * gets the same names, told apart by the {@code connection} tag.
     */
    public void bindChannel(String connection, Supplier<ChannelStatus> status) {
        Tags tags = Tags.of("connection", connection);
        gauge("sf_buffer_bytes", "Bytes buffered", tags, status, ChannelStatus::bufferedBytes);
        gauge("sf_buffer_items", "Items buffered", tags, status, ChannelStatus::bufferedItems);
        gauge("sf_buffer_max_bytes", "The buffer's byte limit", tags, status, ChannelStatus::maxBytes);
        gauge("sf_buffer_fill_ratio", "Bytes buffered as a fraction of the limit", tags, status,
                s -> s.fillPercent() / 100.0);
        gauge("sf_oldest_item_age_seconds", "Age of the oldest buffered item", tags, status,
                s -> s.oldestItemAge().map(d -> d.toMillis() / 1000.0).orElse(0.0));
        gauge("sf_in_bytes_per_second", "Smoothed rate of bytes entering the channel", tags, status,
                ChannelStatus::inBytesPerSecond);
        gauge("sf_out_bytes_per_second", "Smoothed rate of bytes delivered", tags, status,
                ChannelStatus::outBytesPerSecond);
        gauge("sf_quarantine_items", "Items in quarantine", tags, status, ChannelStatus::quarantineItems);
        gauge("sf_quarantine_bytes", "Bytes the quarantine occupies", tags, status, ChannelStatus::quarantineBytes);
        gauge("sf_pressure_alarm", "1 while the buffer-pressure alarm is raised", tags, status,
                s -> s.pressureAlarm() ? 1 : 0);
        counter("sf_items_in", "Items handed to the channel", tags, status, ChannelStatus::itemsIn);
        counter("sf_items_delivered", "Items confirmed written at the destination", tags, status,
                ChannelStatus::itemsDelivered);
        counter("sf_items_dropped", "Items discarded by drop-oldest at the limit", tags, status,
                ChannelStatus::itemsDropped);
        counter("sf_items_quarantined", "Items set aside in quarantine", tags, status,
                ChannelStatus::itemsQuarantined);
        counter("sf_delivery_attempts", "Item write attempts, successful or not", tags, status,
                ChannelStatus::deliveryAttempts);
        for (ChannelState state : ChannelState.values()) {
            Gauge.builder("sf_state", status, s -> s.get().state() == state ? 1 : 0)
                    .description("1 for the channel's current state")
                    .tags(tags.and("state", state.name()))
                    .register(registry);
        }
    }

    private void gauge(String name, String description, Tags tags, Supplier<ChannelStatus> status,
                       ToDoubleFunction<ChannelStatus> value) {
        Gauge.builder(name, status, s -> value.applyAsDouble(s.get())).description(description).tags(tags)
                .register(registry);
    }

    private void counter(String name, String description, Tags tags, Supplier<ChannelStatus> status,
                         ToDoubleFunction<ChannelStatus> value) {
        FunctionCounter.builder(name, status, s -> value.applyAsDouble(s.get())).description(description).tags(tags)
                .register(registry);
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
                Gauge.builder("qubiq_dir_used_bytes", dir, d -> watcher.usedBytes(d).orElse(0L))
                        .description("Bytes the watched directory itself holds (the embedded QuestDB's data)")
                        .tags(tags).register(registry);
            }
            Gauge.builder("qubiq_disk_free_bytes", check,
                            c -> c.lastSample().map(io.qubiq.core.disk.DiskSpace::freeBytes).orElse(0L))
                    .description("Free bytes of the watched directory's file system").tags(tags).register(registry);
            Gauge.builder("qubiq_disk_total_bytes", check,
                            c -> c.lastSample().map(io.qubiq.core.disk.DiskSpace::totalBytes).orElse(0L))
                    .description("Size of the watched directory's file system").tags(tags).register(registry);
            Gauge.builder("qubiq_disk_state", check, c -> c.state().level())
                    .description("0 ok, 1 below disk.warning_free, 2 below disk.critical_free").tags(tags)
                    .register(registry);
        }
    }

    public void close() {
        if (gcMetrics != null) {
            gcMetrics.close();
        }
    }
}
