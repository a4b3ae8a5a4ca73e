package io.qubiq.tagbus;

import java.time.Duration;
import java.util.OptionalLong;
import java.util.function.LongSupplier;

/**
 * Decides when a repeated problem deserves a WARN line: the first occurrence at once, then at most
 * one line per interval, carrying the number of occurrences since the previous line. Keeps drops
 * and consumer errors loud without flooding the log. Safe for concurrent callers.
 */
final class WarningThrottle {

    private final long intervalNanos;
    private final LongSupplier nanoClock;
    private long pending;
    private long lastWarningNanos;
    private boolean warnedBefore;

    WarningThrottle(Duration interval, LongSupplier nanoClock) {
        this.intervalNanos = interval.toNanos();
        this.nanoClock = nanoClock;
    }

    /**
     * Records one occurrence. Returns the count to report when a WARN line is due now (the caller
     * logs it), or empty when the occurrence is kept for the next line.
     */
    synchronized OptionalLong record() {
        pending++;
        long now = nanoClock.getAsLong();
        if (warnedBefore && now - lastWarningNanos < intervalNanos) {
            return OptionalLong.empty();
        }
        warnedBefore = true;
        lastWarningNanos = now;
        long count = pending;
        pending = 0;
        return OptionalLong.of(count);
    }

    /** Occurrences recorded since the last line was due, not yet reported. */
    synchronized long unreported() {
        return pending;
    }
}
