package io.qubiq.tagbus;

import java.time.Duration;
import java.util.OptionalLong;
import java.util.function.LongSupplier;

/**
 * Sums a subscriber's dropped values between two reports to the loss ledger, so a storm of drops
 * costs one report per interval instead of one per value: the first drop is reported at once, then
 * at most one sum per interval, and what is left is reported when delivery catches up or stops.
 * Safe for concurrent callers (publishers drop, the delivery thread and {@code stop} report).
 */
final class LossTally {

    private final long intervalNanos;
    private final LongSupplier nanoClock;
    private long pending;
    private long lastReportNanos;
    private boolean reportedBefore;

    LossTally(Duration interval, LongSupplier nanoClock) {
        this.intervalNanos = interval.toNanos();
        this.nanoClock = nanoClock;
    }

    /** Counts {@code values} dropped; returns the sum to report when a report is due now. */
    synchronized OptionalLong add(long values) {
        pending += values;
        return due();
    }

    /** The sum to report when one is due now and anything is pending. */
    synchronized OptionalLong due() {
        long now = nanoClock.getAsLong();
        if (pending == 0 || reportedBefore && now - lastReportNanos < intervalNanos) {
            return OptionalLong.empty();
        }
        return take(now);
    }

    /** Everything pending, due or not (for a subscriber that stops). */
    synchronized OptionalLong all() {
        return pending == 0 ? OptionalLong.empty() : take(nanoClock.getAsLong());
    }

    private OptionalLong take(long now) {
        reportedBefore = true;
        lastReportNanos = now;
        long sum = pending;
        pending = 0;
        return OptionalLong.of(sum);
    }
}
