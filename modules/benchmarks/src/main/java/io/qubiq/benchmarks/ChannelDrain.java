package io.qubiq.benchmarks;

import io.qubiq.storeforward.ChannelStatus;
import io.qubiq.storeforward.StoreForwardChannel;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Where a harness stops the clock on a channel: when everything submitted has been delivered. A
 * submit returns once the batch is handed off in memory or buffered, not when it is written, so a
 * channel is drained only when its delivered count has reached what was submitted and its buffer is
 * empty ({@code bufferedItems} alone misses a batch still waiting in the hand-off).
 */
final class ChannelDrain {

    private static final long STALL_NANOS = TimeUnit.MINUTES.toNanos(5);

    private ChannelDrain() {
    }

    /**
     * Waits until {@code channel} has delivered {@code deliveredTotal} items since it started and
     * buffers none; returns its status then.
     *
     * @throws IllegalStateException when the delivered count has not moved for 5 minutes
     */
    static ChannelStatus await(StoreForwardChannel<?> channel, long deliveredTotal) {
        long last = -1;
        long lastChange = System.nanoTime();
        while (true) {
            ChannelStatus status = channel.status();
            if (status.itemsDelivered() >= deliveredTotal && status.bufferedItems() == 0) {
                return status;
            }
            if (status.itemsDelivered() != last) {
                last = status.itemsDelivered();
                lastChange = System.nanoTime();
            } else if (System.nanoTime() - lastChange > STALL_NANOS) {
                throw new IllegalStateException("channel " + status.connection() + ": " + status.itemsDelivered()
                        + " of " + deliveredTotal + " delivered, no progress for 5 minutes: " + status);
            }
            LockSupport.parkNanos(1_000_000);
        }
    }
}
