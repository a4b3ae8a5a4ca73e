package io.qubiq.storeforward;

import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Why the forwarder should look again, kept as flags so that a wait can choose what may cut it
 * short: a backoff ends early when the destination comes back UP, not because more data arrived.
 *
 * <p>Threading: {@link #signal} from any thread; {@link #await} by the forwarder only.
 */
final class Wakeups {

    enum Reason {
        /** Something was appended to the buffer. */
        DATA,
        /** The connection monitor changed its verdict. */
        LIVENESS,
        /** An operator retried or dropped quarantined items. */
        OPERATOR,
        /** The channel is stopping. */
        STOP
    }

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final EnumSet<Reason> pending = EnumSet.noneOf(Reason.class);

    void signal(Reason reason) {
        lock.lock();
        try {
            pending.add(reason);
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits until one of {@code wakeOn} (or STOP) is signalled or {@code timeoutMs} passes; clears and
     * returns the reasons that ended the wait (empty on timeout).
     */
    Set<Reason> await(Set<Reason> wakeOn, long timeoutMs) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Math.max(0, timeoutMs));
        lock.lock();
        try {
            while (true) {
                EnumSet<Reason> hit = EnumSet.noneOf(Reason.class);
                for (Reason reason : pending) {
                    if (reason == Reason.STOP || wakeOn.contains(reason)) {
                        hit.add(reason);
                    }
                }
                if (!hit.isEmpty()) {
                    pending.removeAll(hit);
                    pending.remove(Reason.STOP);
                    if (hit.contains(Reason.STOP)) {
                        pending.add(Reason.STOP); // stays set: every later wait returns at once
                    }
                    return hit;
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return EnumSet.noneOf(Reason.class);
                }
                changed.awaitNanos(left);
            }
        } finally {
            lock.unlock();
        }
    }

    /** Forgets a reason that is being handled anyway (new data seen by a peek). */
    void clear(Reason reason) {
        lock.lock();
        try {
            pending.remove(reason);
        } finally {
            lock.unlock();
        }
    }
}
