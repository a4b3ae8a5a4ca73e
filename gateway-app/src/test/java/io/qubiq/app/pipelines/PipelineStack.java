package io.qubiq.app.pipelines;

import io.qubiq.app.config.GatewayConfig;
import io.qubiq.app.outbound.OutboundConnection;
import io.qubiq.app.outbound.OutboundConnections;
import io.qubiq.config.ConfigLoader;
import io.qubiq.core.tag.TagPath;
import io.qubiq.core.tag.TagValue;
import io.qubiq.pipeline.PipelineStatus;
import io.qubiq.pipeline.Pipelines;
import io.qubiq.storeforward.ChannelStatus;
import io.qubiq.storeforward.ConnectionMonitor;
import io.qubiq.storeforward.StoreForwardChannel;
import io.qubiq.tagbus.TagBus;
import io.qubiq.testkit.RecordingEvents;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/**
 * The gateway's pipeline path, assembled by the same builders the gateway uses
 * ({@link OutboundConnections}, {@link PipelineOutputs}, {@link Pipelines}) from a configuration
 * file, with a tag bus the test publishes to and a short probe interval so outages end quickly.
 */
final class PipelineStack implements AutoCloseable {

    final TagBus bus = new TagBus();
    final ConnectionMonitor monitor = new ConnectionMonitor(Clock.systemUTC());
    final Map<String, OutboundConnection<?>> outbound;
    final Pipelines pipelines;

    PipelineStack(String yaml, Path dataDir, Duration probeInterval) throws Exception {
        GatewayConfig config = ConfigLoader.parse("test.yaml", yaml, GatewayConfig.class, Map.of());
        outbound = OutboundConnections.build(config.outbound(), dataDir, monitor, probeInterval, new RecordingEvents(),
                Clock.systemUTC());
        pipelines = new Pipelines(config.pipelines(), dataDir.resolve("pipelines"), bus,
                new MqttDeviceMessages(Map.of(), Clock.systemUTC()), new PipelineOutputs(() -> outbound),
                Clock.systemUTC());
    }

    PipelineStack start() throws Exception {
        bus.start();
        monitor.start();
        for (OutboundConnection<?> connection : outbound.values()) {
            connection.channel().start();
        }
        pipelines.start();
        return this;
    }

    void publish(String path, Object value) {
        publish(path, value, Instant.now());
    }

    void publish(String path, Object value, Instant sourceTime) {
        bus.publish(TagValue.good(TagPath.of(path), value, sourceTime));
    }

    PipelineStatus pipeline(String id) {
        return pipelines.status(id).orElseThrow();
    }

    ChannelStatus channel(String id) {
        return outbound.get(id).channel().status();
    }

    StoreForwardChannel<?> channelOf(String id) {
        return outbound.get(id).channel();
    }

    @Override
    public void close() throws Exception {
        pipelines.stop();
        for (OutboundConnection<?> connection : outbound.values()) {
            connection.channel().stop();
            connection.sink().close();
        }
        monitor.stop();
        bus.stop();
    }
}
