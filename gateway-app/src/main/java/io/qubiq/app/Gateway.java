package io.qubiq.app;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.qubiq.app.config.GatewayConfig;
import io.qubiq.app.lifecycle.GatewayStatus;
import io.qubiq.app.lifecycle.Lifecycle;
import io.qubiq.app.metrics.GatewayMetrics;
import io.qubiq.app.runtime.BuildInfo;
import io.qubiq.app.runtime.DataDirectory;
import io.qubiq.console.ConsoleServer;
import io.qubiq.console.GatewayInfo;
import io.qubiq.tagbus.TagBus;
import java.time.Clock;
import java.time.Duration;

/**
 * The wiring: every concrete component is constructed here, by hand, in dependency order. This is
 * the one place that knows them all; a reader who wants to know what runs starts here.
 *
 * <p>Order: the HTTP server first, so /health can say STARTING while the rest comes up and
 * STOPPING while it goes down; then the tag bus; then (as later work lands) the store-and-forward
 * channels, the historian, pipelines and, last, the device connectors that feed them.
 */
public final class Gateway {

    private final GatewayConfig config;
    private final Lifecycle lifecycle;
    private final ConsoleServer console;
    private final TagBus tagBus;
    private final GatewayMetrics metrics;

    public Gateway(GatewayConfig config, DataDirectory dataDirectory, Clock clock) {
        this.config = config;
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        this.metrics = new GatewayMetrics(registry);

        this.tagBus = new TagBus();

        GatewayInfo info = new GatewayInfo(config.gateway().name(), BuildInfo.version(), clock.instant());
        this.lifecycle = new Lifecycle(clock);
        this.console = new ConsoleServer(config.http(), new GatewayStatus(info, lifecycle), registry, clock);

        lifecycle.add(console);
        lifecycle.add(tagBus);

        metrics.bindJvm();
        metrics.bindLifecycle(lifecycle);
        metrics.bindTagBus(tagBus);
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

    public Duration shutdownGracePeriod() {
        return Duration.ofMillis(config.lifecycle().shutdownGracePeriodMs());
    }

    public void closeMetrics() {
        metrics.close();
    }
}
