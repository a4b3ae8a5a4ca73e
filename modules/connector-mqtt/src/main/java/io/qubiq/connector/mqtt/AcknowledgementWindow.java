package io.qubiq.connector.mqtt;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bounds how many QoS 1/2 messages of one connection wait for their acknowledgement (their values
 * handed to the tag bus, their custody not yet released by every durable subscriber): at most
 * {@code limit}. A message that would exceed it waits on the client's thread until enough receipts
 * completed, so when the durable consumers fall behind, TCP pushes back on the broker instead of
 * unacknowledged messages piling up in the HiveMQ client's session-wide queue (the issue-20 storm;
 * see {@link InboundFlow}).
 *
 * <p><b>Nothing waits for ever.</b> Every share is released on a bounded path (a batch handed on, a
 * hand-off that spills into the buffer when full, a sink's write timeout, a loss), so the wait ends
 * by itself. As a guard against a holder that breaks that rule, a message waits at most {@code
 * maxWait}, then is taken all the same (counted in {@link #overruns()}, logged at WARN at most once
 * per {@code maxWait}): the acknowledgement is still not sent early, the window only grows by one.
 *
 * <p>Thread-safe: {@link #enter} on the client's thread, {@link #leave} on whichever thread
 * completes or abandons a receipt.
 */
final class AcknowledgementWindow {

    private static final Logger LOG = LoggerFactory.getLogger(AcknowledgementWindow.class);

    private final String connection;
    private final int limit;
    private final long maxWaitNanos;
    private final AtomicInteger open = new AtomicInteger();
    private final AtomicLong overruns = new AtomicLong();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition roomMade = lock.newCondition();
    private long lastWarnNanos = System.nanoTime() - Long.MAX_VALUE / 2;

    AcknowledgementWindow(String connection, int limit, long maxWaitMs) {
        if (limit < 1) {
            throw new IllegalArgumentException("the acknowledgement window must hold at least 1 message, got " + limit);
        }
        this.connection = connection;
        this.limit = limit;
        this.maxWaitNanos = TimeUnit.MILLISECONDS.toNanos(maxWaitMs);
    }

    /** Counts a message in, first waiting (at most the maximum wait) while the window is full. */
    void enter() {
        if (open.incrementAndGet() <= limit) {
            return;
        }
        long deadline = System.nanoTime() + maxWaitNanos;
        lock.lock();
        try {
            long left;
            while (open.get() > limit && (left = deadline - System.nanoTime()) > 0) {
                roomMade.awaitNanos(left);
            }
            if (open.get() > limit) {
                overruns.incrementAndGet();
                long now = System.nanoTime();
                if (now - lastWarnNanos >= maxWaitNanos) {
                    lastWarnNanos = now;
                    LOG.warn("MQTT connection {}: {} messages wait for their acknowledgement (limit {}) and none"
                            + " was released for {} ms: taking the next one anyway ({} times so far). A durable"
                            + " subscriber holds its custody too long", connection, open.get() - 1, limit,
                            TimeUnit.NANOSECONDS.toMillis(maxWaitNanos), overruns.get());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the client is shutting down: take the message, do not wait
        } finally {
            lock.unlock();
        }
    }

    /** Counts a message out: its receipt completed or was abandoned. */
    void leave() {
        if (open.getAndDecrement() > limit) {
            lock.lock();
            try {
                roomMade.signalAll();
            } finally {
                lock.unlock();
            }
        }
    }

    /** Messages taken whose acknowledgement is still pending. */
    int open() {
        return open.get();
    }

    /** How often a message was taken after waiting the maximum time in a full window. */
    long overruns() {
        return overruns.get();
    }
}
