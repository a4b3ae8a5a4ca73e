package io.qubiq.storeforward;

import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The ordering latch of DESIGN.md rule 3. Closed while anything for this connection is buffered:
 * then every write is buffered too, behind the backlog. Open only when the forwarder has seen the
 * buffer empty: then a write may go straight to the destination (the fast path).
 *
 * <p>Why there is no window for overtaking: buffered appends run under the shared lock and close
 * the latch; the fast path and {@link #openIfEmpty} run under the exclusive lock. The forwarder
 * opens the latch only while holding the exclusive lock and only if the buffer holds no record, so
 * no append can be in flight at that moment; and a producer decides for the fast path only under
 * the exclusive lock after re-checking that the latch is open, so no append can slip in between
 * its decision and its write.
 *
 * <p>Threading: any number of producers, one forwarder.
 */
final class OrderingLatch {

    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    private volatile boolean closed;

    OrderingLatch(boolean closedAtStart) {
        this.closed = closedAtStart;
    }

    boolean isClosed() {
        return closed;
    }

    /** Held while appending to the buffer. */
    Lock shared() {
        return lock.readLock();
    }

    /** Held while writing on the fast path, and while opening the latch. */
    Lock exclusive() {
        return lock.writeLock();
    }

    /** Called with either lock held, right after an append. */
    void close() {
        closed = true;
    }

    /**
     * Opens the latch if {@code backlogEmpty} says nothing is buffered, checked under the exclusive
     * lock. Returns whether the latch is open afterwards.
     */
    boolean openIfEmpty(java.util.function.BooleanSupplier backlogEmpty) {
        if (!closed) {
            return true;
        }
        lock.writeLock().lock();
        try {
            if (backlogEmpty.getAsBoolean()) {
                closed = false;
            }
            return !closed;
        } finally {
            lock.writeLock().unlock();
        }
    }
}
