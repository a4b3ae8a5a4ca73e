package io.qubiq.tagbus;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One subscriber's bounded FIFO of values (tag values; for a pipeline's MQTT trigger, messages). Publishers {@link #offer} without ever waiting for
 * space: when the queue is full the {@link OverflowPolicy} discards one value and {@code offer}
 * says so, for the caller to count. The subscriber's delivery thread {@link #take}s batches.
 * Safe for concurrent publishers and one taker.
 */
final class SubscriberQueue<V> {

    private final int capacity;
    private final OverflowPolicy policy;
    private final ArrayDeque<V> values;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition notEmpty = lock.newCondition();
    /** Takers waiting on an empty queue; guarded by {@link #lock}. */
    private int waiting;

    SubscriberQueue(int capacity, OverflowPolicy policy) {
        this.capacity = capacity;
        this.policy = policy;
        this.values = new ArrayDeque<>(Math.min(capacity, 1024));
    }

    /**
     * Queues {@code value} under the overflow policy. Returns the value discarded for it ({@code value}
     * itself under drop-newest), or null when nothing was discarded.
     */
    V offer(V value) {
        lock.lock();
        try {
            V discarded = null;
            if (values.size() >= capacity) {
                if (policy == OverflowPolicy.DROP_NEWEST) {
                    return value;
                }
                discarded = values.pollFirst();
            }
            values.addLast(value);
            notEmpty.signal();
            return discarded;
        } finally {
            lock.unlock();
        }
    }

    /** A copy of the values still queued, in queue order; they stay queued. */
    List<V> copy() {
        lock.lock();
        try {
            return new ArrayList<>(values);
        } finally {
            lock.unlock();
        }
    }

    /** Waits for at least one value, then removes and returns up to {@code max} in queue order. */
    List<V> take(int max) throws InterruptedException {
        lock.lockInterruptibly();
        try {
            while (values.isEmpty()) {
                waiting++;
                try {
                    notEmpty.await();
                } finally {
                    waiting--;
                }
            }
            List<V> batch = new ArrayList<>(Math.min(max, values.size()));
            while (batch.size() < max && !values.isEmpty()) {
                batch.add(values.pollFirst());
            }
            return Collections.unmodifiableList(batch);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Whether everything offered so far was taken and handled: the queue is empty and its taker waits for
     * more (it handles a batch between two takes, so an empty queue alone does not say the batch is done).
     */
    boolean drained() {
        lock.lock();
        try {
            return values.isEmpty() && waiting > 0;
        } finally {
            lock.unlock();
        }
    }

    int size() {
        lock.lock();
        try {
            return values.size();
        } finally {
            lock.unlock();
        }
    }

    int capacity() {
        return capacity;
    }
}
