package io.qubiq.app;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.qubiq.app.config.DeviceConfig;
import io.qubiq.app.config.GatewayConfig;
import io.qubiq.app.devices.DeviceConnections;
import io.qubiq.app.devices.TagBusView;
import io.qubiq.app.events.EventJournal;
import io.qubiq.app.lifecycle.GatewayStatus;
import io.qubiq.app.lifecycle.Lifecycle;
import io.qubiq.app.metrics.GatewayMetrics;
import io.qubiq.app.runtime.BuildInfo;
import io.qubiq.app.runtime.DataDirectory;
import io.qubiq.connector.opcua.OpcUaConnectionConfig;
import io.qubiq.connector.opcua.OpcUaConnector;
import io.qubiq.console.ApiRoutes;
import io.qubiq.console.ConsoleServer;
import io.qubiq.console.DeviceRoutes;
import io.qubiq.console.GatewayInfo;
import io.qubiq.core.tag.TagPath;
import io.qubiq.tagbus.TagBus;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The wiring: every concrete component is constructed here, by hand, in dependency order. This is
 * the one place that knows them all; a reader who wants to know what runs starts here.
 *
 * <p>Order: the HTTP server first, so /health can say STARTING while the rest comes up and
 * STOPPING while it goes down; then the tag bus; then (as later work lands) the store-and-forward
 * channels, the historian and pipelines; and last the device connections that feed them, so no
 * value arrives before its consumers are ready.
 */
public final class Gateway {

    private final GatewayConfig config;
    private final Lifecycle lifecycle;
    private final ConsoleServer console;
    private final TagBus tagBus;
    private final EventJournal events = new EventJournal();
    private final DeviceConnections devices;
    private final GatewayMetrics metrics;

    public Gateway(GatewayConfig config, DataDirectory dataDirectory, Clock clock) {
        this.config = config;
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        this.metrics = new GatewayMetrics(registry);
        this.tagBus = new TagBus();
        this.devices = new DeviceConnections(deviceEntries(config, dataDirectory.root()), tagBus, events, clock);

        GatewayInfo info = new GatewayInfo(config.gateway().name(), BuildInfo.version(), clock.instant());
        this.lifecycle = new Lifecycle(clock);
        List<ApiRoutes> routes = new ArrayList<>();
        routes.add(new DeviceRoutes(devices, new TagBusView(tagBus)));
        this.console = new ConsoleServer(config.http(), new GatewayStatus(info, lifecycle), registry, clock, routes);

        lifecycle.add(console);
        lifecycle.add(tagBus);
        lifecycle.add(devices);

        metrics.bindJvm();
        metrics.bindLifecycle(lifecycle);
        metrics.bindTagBus(tagBus);
    }

    /** One connector per configured device connection; the factory per protocol is chosen here. */
    private static Map<String, DeviceConnections.Entry> deviceEntries(GatewayConfig config, Path dataDir) {
        Map<String, DeviceConnections.Entry> entries = new LinkedHashMap<>();
        for (Map.Entry<String, DeviceConfig> device : config.devices().entrySet()) {
            String id = device.getKey();
            if (device.getValue().opcua().isPresent()) {
                OpcUaConnectionConfig opcua = withPkiInDataDir(device.getValue().opcua().get(), id, dataDir);
                List<TagPath> tags = opcua.tags().stream().map(tag -> TagPath.of(tag.path())).toList();
                entries.put(id, new DeviceConnections.Entry(new OpcUaConnector(id, opcua), "opcua", tags));
            }
        }
        return entries;
    }

    private static OpcUaConnectionConfig withPkiInDataDir(OpcUaConnectionConfig opcua, String id, Path dataDir) {
        Path pki = opcua.pkiDir().orElse(Path.of("pki", id));
        return opcua.withPkiDir(pki.isAbsolute() ? pki : dataDir.resolve(pki));
    }

    public Lifecycle lifecycle() {
        return lifecycle;
    }

    public ConsoleServer console() {
        return console;
    }

    public TagBus tagBus() {
        return tagBus;
    }

    public EventJournal events() {
        return events;
    }

    public Duration shutdownGracePeriod() {
        return Duration.ofMillis(config.lifecycle().shutdownGracePeriodMs());
    }

    public void closeMetrics() {
        metrics.close();
    }
}
