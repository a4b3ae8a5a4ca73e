package io.qubiq.pipeline;

import io.qubiq.buffer.OverflowPolicy;
import io.qubiq.buffer.SegmentedDiskBuffer;
import io.qubiq.core.tag.TagPath;
import io.qubiq.core.tag.TagValue;
import io.qubiq.pipeline.config.OutputConfig;
import io.qubiq.pipeline.config.PipelineConfig;
import io.qubiq.pipeline.expr.Expression;
import io.qubiq.pipeline.expr.ExpressionException;
import io.qubiq.storeforward.ChannelConfig;
import io.qubiq.storeforward.Liveness;
import io.qubiq.storeforward.StoreForwardChannel;
import io.qubiq.storeforward.quarantine.FileQuarantineStore;
import io.qubiq.tagbus.TagBus;
import io.qubiq.testkit.RecordingEvents;
import io.qubiq.testkit.ScriptedSink;
import io.qubiq.testkit.TextCodec;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A tag bus, real store-and-forward channels (disk buffers) in front of scripted sinks of text
 * items, and the pipelines under test, whose outputs render each event as text: the value of the
 * output's {@code mqtt.payload} expression becomes the item. Restartable on the same directory.
 */
final class PipelineRig implements AutoCloseable {

    final Path dir;
    final TagBus bus = new TagBus();
    final RecordingEvents events = new RecordingEvents();
    final Map<String, ScriptedSink<String>> sinks = new HashMap<>();
    final Map<String, StoreForwardChannel<String>> channels = new HashMap<>();
    final Map<String, OverflowPolicy> policies = new HashMap<>();
    final Map<String, ChannelConfig> channelConfigs = new HashMap<>();
    Pipelines pipelines;
    /** The MQTT device messages MQTT triggers listen to; none unless set. */
    io.qubiq.pipeline.trigger.DeviceMessages messages;
    /** Sees every rendered item before it is submitted; a test may make it throw. */
    volatile java.util.function.Consumer<String> onRender = item -> { };
    /** Connections whose channel keeps the synchronous contract (the producer's thread writes). */
    final java.util.Set<String> synchronous = new java.util.HashSet<>();

    PipelineRig(Path dir) {
        this.dir = dir;
    }

    PipelineRig connection(String id, OverflowPolicy policy, ChannelConfig config) {
        sinks.put(id, new ScriptedSink<>(id));
        policies.put(id, policy);
        channelConfigs.put(id, config);
        return this;
    }

    static ChannelConfig fast() {
        return ChannelConfig.defaults().withMaxBytes(4L << 20).withSegmentBytes(256 * 1024).withBatch(50, 0)
                .withBackoff(5, 50);
    }

    /** Starts the bus, the channels and the pipelines; each output's MQTT payload expression renders its item. */
    PipelineRig start(Map<String, PipelineConfig> configs) throws Exception {
        bus.start();
        for (String id : sinks.keySet()) {
            StoreForwardChannel<String> channel = new StoreForwardChannel<>(id, channelConfigs.get(id), policies.get(id),
                    dir.resolve(id).resolve("buffer"), SegmentedDiskBuffer::open,
                    maxBytes -> FileQuarantineStore.open(dir.resolve(id).resolve("quarantine"), maxBytes),
                    sinks.get(id), new TextCodec(), Liveness.alwaysUnknown(), events, Clock.systemUTC());
            if (synchronous.contains(id)) {
                channel.synchronousSubmit();
            }
            channel.start();
            channels.put(id, channel);
        }
        pipelines = new Pipelines(configs, dir.resolve("pipelines"), bus, messages, (pipeline, index, output, variables, engine) -> {
            StoreForwardChannel<String> channel = channels.get(output.connection());
            if (channel == null) {
                throw new IllegalArgumentException("no outbound connection '" + output.connection() + "'");
            }
            Expression text = engine.compile(((OutputConfig.Mqtt) output).mqtt().payload(), variables);
            return new ChannelOutput<>(channel, (scope, itemId) -> {
                String item = render(text, scope);
                onRender.accept(item);
                return item;
            });
        }, Clock.systemUTC(), events);
        pipelines.start();
        return this;
    }

    private static String render(Expression text, io.qubiq.pipeline.expr.Scope scope) throws ExpressionException {
        return String.valueOf(text.evaluate(scope));
    }

    void publish(String path, Object value) {
        bus.publish(TagValue.good(TagPath.of(path), value, Instant.now()));
    }

    List<String> received(String connection) {
        return sinks.get(connection).received();
    }

    /** Stops everything but keeps the directory, as a gateway shutdown does. */
    void stop() throws Exception {
        if (pipelines != null) {
            pipelines.stop();
        }
        for (StoreForwardChannel<String> channel : channels.values()) {
            channel.stop();
        }
        channels.clear();
        bus.stop();
    }

    @Override
    public void close() throws Exception {
        stop();
    }
}
