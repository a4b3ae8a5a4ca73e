package io.qubiq.core.time;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link Ticker} that moves only when told to, for tests: pair it with a wall clock the test can
 * step, and check that stepping the wall clock alone changes no interval. It starts at an arbitrary
 * non-zero reading so that code which treats 0 as "never" is caught.
 *
 * <p>Threading: safe for concurrent readers and movers.
 */
public final class ManualTicker implements Ticker {

    private final AtomicLong nanos = new AtomicLong(1_000_000_000_000L);

    @Override
    public long nanos() {
        return nanos.get();
    }

    /** Moves the ticker forward; a monotonic clock never goes back, so a negative duration is refused. */
    public ManualTicker advance(Duration duration) {
        if (duration.isNegative()) {
            throw new IllegalArgumentException("a monotonic clock never goes back, was asked to move " + duration);
        }
        nanos.addAndGet(duration.toNanos());
        return this;
    }

    public ManualTicker advanceMillis(long ms) {
        return advance(Duration.ofMillis(ms));
    }
}
