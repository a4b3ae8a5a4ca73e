package io.qubiq.storeforward;

import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;

/**
 * The running totals of one channel, the source of its status and metrics. Monotonic counters
 * since start; rates smoothed over about ten seconds.
 *
 * <p>Threading: updated by producers and the forwarder concurrently; reads are lock-free.
 */
final class ChannelCounters {

    record LastError(String message, Instant at) {
    }

    final RateMeter bytesIn;
    final RateMeter bytesOut;
    final AtomicLong itemsIn = new AtomicLong();
    final AtomicLong itemsDelivered = new AtomicLong();
    /** Items a full buffer with the refuse policy turned away (the batch's items, none stored). */
    final AtomicLong itemsRefused = new AtomicLong();
    final AtomicLong itemsQuarantined = new AtomicLong();
    final AtomicLong deliveryAttempts = new AtomicLong();
    private final AtomicReference<LastError> lastError = new AtomicReference<>();
    /** The monotonic clock the rates are measured with, for whoever measures beside them. */
    final LongSupplier nanoClock;

    ChannelCounters(LongSupplier nanoClock) {
        this.nanoClock = nanoClock;
        this.bytesIn = new RateMeter(10_000, nanoClock);
        this.bytesOut = new RateMeter(10_000, nanoClock);
    }

    void error(String message, Instant at) {
        lastError.set(new LastError(message, at));
    }

    Optional<LastError> lastError() {
        return Optional.ofNullable(lastError.get());
    }
}
