package io.qubiq.storeforward;

import io.qubiq.buffer.OverflowPolicy;
import io.qubiq.buffer.SegmentedDiskBuffer;
import io.qubiq.core.event.EventPublisher;
import io.qubiq.core.sink.ItemCodec;
import io.qubiq.core.sink.Sink;
import io.qubiq.storeforward.quarantine.FileQuarantineStore;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Objects;

/**
 * Builds a {@link StoreForwardChannel} whose buffer and quarantine live on disk under one
 * directory: {@code <dir>/buffer} (a {@link SegmentedDiskBuffer}) and {@code <dir>/quarantine} (a
 * {@link FileQuarantineStore}), the layout every channel of the gateway uses. The only way the
 * gateway's channels are made, so that the layout and the required parts are stated once:
 *
 * <pre>{@code
 * StoreForwardChannel<SqlRow> channel = ChannelBuilder.of("db", config, sink, codec)
 *         .overflowDefault(OverflowPolicy.REFUSE)   // the destination kind's default
 *         .inDirectory(dataDir.resolve("connections").resolve("db"))
 *         .liveness(monitor.register("db", sink::probe, interval))
 *         .events(events)
 *         .build();
 * }</pre>
 *
 * Required: the overflow default, the directory and the event publisher; the liveness defaults to
 * {@link Liveness#alwaysUnknown()} (no connection monitor) and the clock to UTC. Tests that need
 * other storage use {@link StoreForwardChannel}'s constructor with their own openers.
 *
 * <p>Not thread-safe; build on one thread.
 */
public final class ChannelBuilder<T> {
    private final String connection;
    private final ChannelConfig config;
    private final Sink<T> sink;
    private final ItemCodec<T> codec;
    private OverflowPolicy overflowDefault;
    private Path dir;
    private Liveness liveness = Liveness.alwaysUnknown();
    private EventPublisher events;
    private Clock clock = Clock.systemUTC();

    private ChannelBuilder(String connection, ChannelConfig config, Sink<T> sink, ItemCodec<T> codec) {
        this.connection = Objects.requireNonNull(connection, "connection");
        this.config = Objects.requireNonNull(config, "config");
        this.sink = Objects.requireNonNull(sink, "sink");
        this.codec = Objects.requireNonNull(codec, "codec");
    }

    /** A channel named {@code connection}, configured by {@code config}, in front of {@code sink}. */
    public static <T> ChannelBuilder<T> of(String connection, ChannelConfig config, Sink<T> sink, ItemCodec<T> codec) {
        return new ChannelBuilder<>(connection, config, sink, codec);
    }

    /** The overflow policy of the destination's kind, used unless the configuration names one. */
    public ChannelBuilder<T> overflowDefault(OverflowPolicy policy) {
        this.overflowDefault = Objects.requireNonNull(policy, "policy");
        return this;
    }

    /** The channel's own directory: its buffer and quarantine go in sub-directories. */
    public ChannelBuilder<T> inDirectory(Path dir) {
        this.dir = Objects.requireNonNull(dir, "dir");
        return this;
    }

    /** The connection monitor's verdict on the destination. */
    public ChannelBuilder<T> liveness(Liveness liveness) {
        this.liveness = Objects.requireNonNull(liveness, "liveness");
        return this;
    }

    /** Where the channel's alarms, losses and state changes go. */
    public ChannelBuilder<T> events(EventPublisher events) {
        this.events = Objects.requireNonNull(events, "events");
        return this;
    }

    public ChannelBuilder<T> clock(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
        return this;
    }

    /**
     * The channel, not yet started.
     *
     * @throws IllegalStateException a required part is missing (named)
     */
    public StoreForwardChannel<T> build() {
        require(overflowDefault, "overflowDefault");
        require(dir, "inDirectory");
        require(events, "events");
        Path quarantineDir = dir.resolve("quarantine");
        return new StoreForwardChannel<>(connection, config, overflowDefault, dir.resolve("buffer"),
                SegmentedDiskBuffer::open, maxBytes -> FileQuarantineStore.open(quarantineDir, maxBytes), sink, codec,
                liveness, events, clock);
    }

    private void require(Object part, String name) {
        if (part == null) {
            throw new IllegalStateException("channel " + connection + ": " + name + "(...) is required");
        }
    }
}
