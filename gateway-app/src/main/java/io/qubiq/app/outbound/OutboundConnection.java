package io.qubiq.app.outbound;

import io.qubiq.app.config.OutboundConfig;
import io.qubiq.core.error.ConfigurationException;
import io.qubiq.core.sink.Sink;
import io.qubiq.pipeline.OutboundKind;
import io.qubiq.storeforward.StoreForwardChannel;
import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One configured outbound connection as built: its kind, its sink and the channel in front of it.
 * Everything that writes to the destination goes through {@link #channel}. The channel object stays
 * for the gateway's life (pipelines, the console and the metrics hold it); the sink can be replaced
 * while it runs ({@link #reconfigure}), and the connection monitor's probe always asks the current one.
 *
 * <p>Threading: {@link #sink} from any thread; {@link #reconfigure} one call at a time.
 *
 * @param <T> the sink's item type, the kind's {@link OutboundKind#itemType}
 */
public final class OutboundConnection<T> {

    private final String id;
    private final OutboundKind<?, ?, T> kind;
    private final AtomicReference<Sink<T>> sink;
    private final StoreForwardChannel<T> channel;

    /** @param sink the slot holding the current sink, which the connection's probe reads too */
    OutboundConnection(String id, OutboundKind<?, ?, T> kind, AtomicReference<Sink<T>> sink,
                       StoreForwardChannel<T> channel) {
        this.id = id;
        this.kind = kind;
        this.sink = sink;
        this.channel = channel;
    }

    public String id() {
        return id;
    }

    public OutboundKind<?, ?, T> kind() {
        return kind;
    }

    /** The sink the channel writes to now. */
    public Sink<T> sink() {
        return sink.get();
    }

    public StoreForwardChannel<T> channel() {
        return channel;
    }

    /** This connection's channel when it carries {@code itemType}s, as its kind says. */
    @SuppressWarnings("unchecked")
    public <R> Optional<StoreForwardChannel<R>> channelOf(Class<R> itemType) {
        return kind.itemType() == itemType ? Optional.of((StoreForwardChannel<R>) channel)
                : Optional.empty();
    }

    /**
     * Takes a changed section of the same kind while the gateway runs: a new sink is built from it and
     * replaces the old one in the channel together with the new delivery settings
     * ({@link StoreForwardChannel#replaceSink}: the backlog, quarantine and counters stay), then the old
     * sink is closed. Storage settings (sizes, water marks, overflow policy, durability) must be
     * unchanged: see {@link io.qubiq.storeforward.ChannelConfig#sameStorage}.
     *
     * @throws ConfigurationException the new section does not make a sink; nothing changed
     */
    public void reconfigure(OutboundConfig config, Clock clock) throws ConfigurationException, InterruptedException {
        Sink<T> next = OutboundConnections.sinkOf(kind, id, config, clock);
        Sink<T> old = channel.replaceSink(next, config.storeAndForward());
        sink.set(next);
        old.close();
    }
}
