package io.qubiq.storeforward;

import io.qubiq.buffer.OverflowPolicy;
import io.qubiq.core.sink.EncodedWrites;
import io.qubiq.core.sink.ItemCodec;
import io.qubiq.testkit.RecordingEvents;
import io.qubiq.testkit.ScriptedSink;
import io.qubiq.testkit.TextCodec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A real channel (disk buffer, file quarantine) on a test directory, in front of a scripted sink.
 * Small segments and short backoffs so tests run fast; everything else as configured in production.
 */
final class ChannelFixture implements AutoCloseable {

    final Path dir;
    final ScriptedSink<String> sink;
    final SettableLiveness liveness = new SettableLiveness();
    final RecordingEvents events = new RecordingEvents();
    final ChannelConfig config;
    final OverflowPolicy policy;
    final ItemCodec<String> codec;
    /** Set by {@link #withEncodedWrites}: the channel's sink then writes buffered items as bytes. */
    EncodedWritesSink<String> encodedSink;
    /** Set by {@link #withSink}: the sink the channel writes to instead of {@link #sink}. */
    io.qubiq.core.sink.Sink<String> sinkInFront;
    StoreForwardChannel<String> channel;
    /** Set by {@link #holdBacklogUntil}: applied to every channel this fixture starts. */
    private java.util.function.BooleanSupplier backlogSettled;
    private java.time.Duration backlogHoldAtMost;

    ChannelFixture(Path dir, ChannelConfig config, OverflowPolicy policy) {
        this(dir, config, policy, new ScriptedSink<>("dest"));
    }

    ChannelFixture(Path dir, ChannelConfig config, OverflowPolicy policy, ScriptedSink<String> sink) {
        this(dir, config, policy, sink, new TextCodec());
    }

    ChannelFixture(Path dir, ChannelConfig config, OverflowPolicy policy, ScriptedSink<String> sink,
                   ItemCodec<String> codec) {
        this.dir = dir;
        this.config = config;
        this.policy = policy;
        this.sink = sink;
        this.codec = codec;
    }

    static ChannelConfig fastConfig() {
        return ChannelConfig.defaults()
                .withMaxBytes(4L << 20)
                .withSegmentBytes(256 * 1024)
                .withBatch(50, 0)
                .withBackoff(5, 50);
    }

    /** The channel gets the scripted sink behind {@link EncodedWrites}: buffered items reach it as bytes. */
    ChannelFixture withEncodedWrites() {
        encodedSink = new EncodedWritesSink<>(sink, codec);
        return this;
    }

    /** The channel writes to {@code wrapper} (which may pass writes on to {@link #sink}). */
    ChannelFixture withSink(io.qubiq.core.sink.Sink<String> wrapper) {
        sinkInFront = wrapper;
        return this;
    }

    /** Every channel started from now on holds a backlog it starts with ({@link StoreForwardChannel#holdBacklogUntil}). */
    ChannelFixture holdBacklogUntil(java.util.function.BooleanSupplier settled, java.time.Duration atMost) {
        backlogSettled = settled;
        backlogHoldAtMost = atMost;
        return this;
    }

    ChannelFixture start() throws Exception {
        channel = ChannelBuilder.of("dest", config,
                        encodedSink != null ? encodedSink : sinkInFront != null ? sinkInFront : sink, codec)
                .overflowDefault(policy)
                .inDirectory(dir)
                .liveness(liveness)
                .events(events)
                .build();
        if (backlogSettled != null) {
            channel.holdBacklogUntil(backlogSettled, backlogHoldAtMost);
        }
        channel.start();
        return this;
    }

    /** Stops and starts a new channel on the same directories, as a gateway restart would. */
    ChannelFixture restart() throws Exception {
        channel.stop();
        return start();
    }

    SubmitOutcome submit(String... items) throws Exception {
        return channel.submit(List.of(items));
    }

    /**
     * Submits {@code prefix0 .. prefix<total-1>} in batches of 10, one batch every 2 ms, on another thread:
     * a stream that something done to the channel meanwhile lands in the middle of. A submit that throws
     * (a producer turned away) fails the future.
     */
    java.util.concurrent.CompletableFuture<Void> pacedProducer(String prefix, int total) {
        return java.util.concurrent.CompletableFuture.runAsync(() -> {
            for (int n = 0; n < total; n += 10) {
                try {
                    channel.submit(items(prefix, n, Math.min(total, n + 10)));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
                java.util.concurrent.locks.LockSupport.parkNanos(2_000_000); // pacing, not waiting for a condition
            }
        });
    }

    static List<String> items(String prefix, int from, int toExclusive) {
        List<String> items = new ArrayList<>();
        for (int i = from; i < toExclusive; i++) {
            items.add(prefix + i);
        }
        return items;
    }

    @Override
    public void close() throws Exception {
        if (channel != null) {
            channel.stop();
        }
    }
}
