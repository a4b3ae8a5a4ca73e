package io.qubiq.historian;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The room of the whole live tail, in samples: what every tag's ring has allocated, against a
 * maximum. A ring's first, small allocation is always granted (a new tag's trend is live from its
 * first sample), and counted; growing takes room only while there is some, and gets what is left
 * when it asked for more. Room is never given back (a tag's ring lives as long as the tail), so once
 * the maximum is reached no ring grows again: each keeps its newest samples in what it has.
 *
 * <p>Memory is therefore at most {@code max} samples plus the first allocations of tags that came
 * after the maximum was reached. Thread-safe.
 */
final class TailBudget {

    private final long max;
    private final AtomicLong allocated = new AtomicLong();

    TailBudget(long max) {
        if (max < 1) {
            throw new IllegalArgumentException("the live tail's maximum must be at least 1 sample, got " + max);
        }
        this.max = max;
    }

    /** No maximum: only the per-tag capacity bounds the tail. */
    static TailBudget unlimited() {
        return new TailBudget(Long.MAX_VALUE);
    }

    /** Counts a ring's first allocation of {@code slots}; always granted. */
    void first(int slots) {
        allocated.addAndGet(slots);
    }

    /** Takes up to {@code wanted} more slots and returns how many it took: 0 once the maximum is reached. */
    int grow(int wanted) {
        while (true) {
            long now = allocated.get();
            long granted = Math.min(wanted, max - now);
            if (granted <= 0) {
                return 0;
            }
            if (allocated.compareAndSet(now, now + granted)) {
                return (int) granted;
            }
        }
    }

    /** Slots allocated by every ring together. */
    long allocated() {
        return allocated.get();
    }
}
