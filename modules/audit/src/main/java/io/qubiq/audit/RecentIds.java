package io.qubiq.audit;

import java.util.HashSet;
import java.util.Set;

/**
 * The ids of the newest stored entries, so that an entry the channel delivers again (after a crash
 * between the store's write and the channel's acknowledgement) is recognised and stored only once.
 * A re-delivery is at most the channel's unacknowledged batch, far fewer than {@link #CAPACITY}.
 *
 * <p>Threading: not thread-safe; the store guards it with its write lock.
 */
final class RecentIds {

    static final int CAPACITY = 16_384;

    private final long[] ring = new long[CAPACITY];
    private final Set<Long> present = new HashSet<>();
    private int next;
    private int size;
    private long highest;

    boolean contains(long id) {
        return present.contains(id);
    }

    void add(long id) {
        if (!present.add(id)) {
            return;
        }
        if (size == CAPACITY) {
            present.remove(ring[next]);
        } else {
            size++;
        }
        ring[next] = id;
        next = (next + 1) % CAPACITY;
        highest = Math.max(highest, id);
    }

    /** The highest id ever added (0 when none). */
    long highest() {
        return highest;
    }
}
