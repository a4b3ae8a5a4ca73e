package io.qubiq.app.outbound;

import io.qubiq.app.config.OutboundConfig;
import io.qubiq.core.error.ConfigurationException;
import io.qubiq.core.sink.Sink;
import io.qubiq.pipeline.OutboundKind;
import io.qubiq.storeforward.ChannelConfig;
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
     * Takes a changed section of the same kind while the gateway runs: when its storage settings changed,
     * the channel reopens its buffer and quarantine with them first ({@link StoreForwardChannel#reopenStorage});
     * then a new sink built from the section replaces the old one together with the new delivery settings
     * ({@link StoreForwardChannel#replaceSink}), and the old sink is closed. The backlog, the quarantine
     * and the counters stay throughout; a new {@code segment_bytes} applies to the segments written from then
     * on.
     *
     * @throws ConfigurationException the new section does not make a sink; nothing changed
     * @throws Exception the channel refused the new storage settings; it runs with the old ones
     */
    public void reconfigure(OutboundConfig config, Clock clock) throws Exception {
        Sink<T> next = OutboundConnections.sinkOf(kind, id, config, clock);
        ChannelConfig settings = config.storeAndForward();
        Sink<T> old;
        try {
            if (!channel.settings().sameStorage(settings)) {
                channel.reopenStorage(settings);
            }
            old = channel.replaceSink(next, settings);
        } catch (Exception e) {
            next.close(); // never took over: nothing else holds it
            throw e;
        }
        sink.set(next);
        old.close();
    }
}
