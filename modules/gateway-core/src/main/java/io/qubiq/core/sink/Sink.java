package io.qubiq.core.sink;

import io.qubiq.core.error.GatewayException;
import io.qubiq.core.health.ConnectionStatus;
import java.util.List;

/**
 * The driver-specific write to one destination. A sink opens, checks health, writes a batch,
 * closes, and classifies its failures; it never buffers, retries or sleeps. Buffering, retry,
 * backoff and quarantine belong to the store-and-forward channel that owns it.
 *
 * <p>Threading: {@link #write} is called by one thread at a time (its channel's forwarder, or the
 * producer on the fast path under the channel's latch). {@link #probe} comes from the connection
 * monitor's thread and may run while a write is in progress, so it must use its own connection
 * or otherwise not disturb the write.
 *
 * @param <T> the item type the sink writes; its {@link ItemCodec} turns items into buffer bytes
 */
public interface Sink<T> extends AutoCloseable {

    /** The outbound connection id from configuration. */
    String id();

    /**
     * Writes every item of {@code batch} and flushes it: when this returns normally the destination
     * has all of them. Otherwise it throws one of the typed {@link GatewayException}s: transient
     * (nothing written), permanent (naming the rejected items where known), unknown outcome
     * (sent, no verdict) or configuration.
     */
    void write(List<T> batch) throws GatewayException;

    /** Probes the destination with an operation like its own writes; never throws. */
    ConnectionStatus probe();

    /**
     * Whether replaying an item that may already have been written is harmless (dedup keys,
     * upserts by item id). Idempotent sinks are retried past the unknown-outcome attempt cap.
     */
    default boolean idempotent() {
        return false;
    }

    @Override
    void close();
}
