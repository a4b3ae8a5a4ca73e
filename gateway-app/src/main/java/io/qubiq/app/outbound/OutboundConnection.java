package io.qubiq.app.outbound;

import io.qubiq.core.sink.Sink;
import io.qubiq.storeforward.StoreForwardChannel;

/**
 * One configured outbound connection as built: its kind, its sink and the channel in front of it.
 * Everything that writes to the destination goes through {@link #channel}.
 *
 * @param <T> the sink's item type
 */
public record OutboundConnection<T>(String id, String kind, Sink<T> sink, StoreForwardChannel<T> channel) {}
