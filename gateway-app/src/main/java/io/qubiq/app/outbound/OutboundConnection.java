package io.qubiq.app.outbound;

import io.qubiq.core.sink.Sink;
import io.qubiq.pipeline.OutboundKind;
import io.qubiq.storeforward.StoreForwardChannel;
import java.util.Optional;

/**
 * One configured outbound connection as built: its kind, its sink and the channel in front of it.
 * Everything that writes to the destination goes through {@link #channel}.
 *
 * @param <T> the sink's item type, the kind's {@link OutboundKind#itemType}
 */
public record OutboundConnection<T>(String id, OutboundKind<?, ?, T> kind, Sink<T> sink, StoreForwardChannel<T> channel) {

    /** This connection's channel when it carries {@code itemType}s, as its kind says. */
    @SuppressWarnings("unchecked")
    public <R> Optional<StoreForwardChannel<R>> channelOf(Class<R> itemType) {
        return kind.itemType() == itemType ? Optional.of((StoreForwardChannel<R>) channel)
                : Optional.empty();
    }
}
