package io.qubiq.historian;

import io.qubiq.core.time.ManualTicker;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * A wall clock a test moves by hand, with the monotonic {@link #ticker()} beside it: {@link #advance}
 * is time passing (both move), {@link #step} is the wall clock being set (only it moves, back or
 * forward, as NTP or an operator would). Thread-safe.
 */
final class MutableClock extends Clock {

    private volatile Instant now;
    private final ManualTicker ticker = new ManualTicker();

    MutableClock(Instant start) {
        this.now = start;
    }

    /** Time passes: the wall clock and the ticker move by {@code duration}. */
    synchronized void advance(Duration duration) {
        ticker.advance(duration);
        now = now.plus(duration);
    }

    void advanceMillis(long ms) {
        advance(Duration.ofMillis(ms));
    }

    /** The wall clock is set {@code by} (negative: back); no time passes, the ticker stays. */
    synchronized void step(Duration by) {
        now = now.plus(by);
    }

    /** The monotonic clock that {@link #advance} moves and {@link #step} does not. */
    ManualTicker ticker() {
        return ticker;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }

    @Override
    public Instant instant() {
        return now;
    }
}
