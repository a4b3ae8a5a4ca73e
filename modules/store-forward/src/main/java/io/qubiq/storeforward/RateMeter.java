package io.qubiq.storeforward;

import java.util.function.LongSupplier;

/**
 * A smoothed rate (units per second) of something counted, such as bytes entering a buffer. Each
 * {@link #rate()} call folds the count since the previous call into an exponentially weighted
 * average with a time constant of about {@code windowMs}, so bursts and pauses show within seconds
 * without the figure jumping about.
 *
 * <p>Time: {@code nanoClock} must be monotonic ({@link io.qubiq.core.time.Ticker#nanos()},
 * {@code System::nanoTime}), never derived from the wall clock: a wall clock stepped back would make
 * {@link #rate} freeze (no elapsed time) and one stepped forward would flatten the rate towards zero.
 *
 * <p>Threading: {@link #add} from any thread; {@link #rate} is synchronized.
 */
final class RateMeter {

    private final java.util.concurrent.atomic.LongAdder count = new java.util.concurrent.atomic.LongAdder();
    private final LongSupplier nanoClock;
    private final double windowNanos;
    private long lastNanos;
    private long lastCount;
    private double rate;

    RateMeter(long windowMs, LongSupplier nanoClock) {
        this.windowNanos = windowMs * 1_000_000.0;
        this.nanoClock = nanoClock;
        this.lastNanos = nanoClock.getAsLong();
    }

    void add(long amount) {
        count.add(amount);
    }

    long total() {
        return count.sum();
    }

    synchronized double rate() {
        long now = nanoClock.getAsLong();
        long elapsed = now - lastNanos;
        if (elapsed <= 0) {
            return rate;
        }
        long total = count.sum();
        double instant = (total - lastCount) * 1e9 / elapsed;
        double alpha = 1 - Math.exp(-elapsed / windowNanos);
        rate = rate + alpha * (instant - rate);
        lastNanos = now;
        lastCount = total;
        return rate;
    }
}
