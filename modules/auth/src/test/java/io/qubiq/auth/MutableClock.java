package io.qubiq.auth;

import io.qubiq.core.time.ManualTicker;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * A wall clock the test moves by hand, with the monotonic {@link #ticker()} beside it: {@link #advance}
 * is time passing (both move), {@link #step} is the wall clock being set (only it moves, back or forward).
 */
final class MutableClock extends Clock {

    private volatile Instant now = Instant.parse("2025-03-01T06:00:00Z");
    private final ManualTicker ticker = new ManualTicker();

    /** Time passes: the wall clock and the ticker move by {@code by}. */
    synchronized void advance(Duration by) {
        ticker.advance(by);
        now = now.plus(by);
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
    public Instant instant() {
        return now;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }
}
