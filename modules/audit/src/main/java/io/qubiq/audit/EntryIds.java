package io.qubiq.audit;

import java.time.Clock;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Hands out journal entry ids: the wall-clock millisecond shifted left by 12 bits plus a counter,
 * so an id also tells roughly when its entry was journaled, and never smaller than the previous id
 * plus one, so ids keep increasing even when the clock steps back or more than 4,096 entries come
 * in one millisecond. {@link #after} seeds the generator with the highest id a store already holds,
 * which keeps ids increasing across restarts too.
 *
 * <p>Threading: safe for concurrent callers.
 */
public final class EntryIds {

    static final int COUNTER_BITS = 12;

    private final Clock clock;
    private final AtomicLong last;

    private EntryIds(Clock clock, long last) {
        this.clock = clock;
        this.last = new AtomicLong(last);
    }

    public static EntryIds create(Clock clock) {
        return new EntryIds(clock, 0);
    }

    /** A generator whose first id is above {@code highestIssued}. */
    public static EntryIds after(long highestIssued, Clock clock) {
        return new EntryIds(clock, highestIssued);
    }

    public long next() {
        long floor = clock.millis() << COUNTER_BITS;
        return last.updateAndGet(previous -> Math.max(previous + 1, floor));
    }
}
