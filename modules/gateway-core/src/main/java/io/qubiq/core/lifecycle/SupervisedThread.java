package io.qubiq.core.lifecycle;

import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * A worker thread that does not stay dead: when its body throws anything (an {@link Error} such as
 * {@code OutOfMemoryError} included), the {@link Listener} hears of it on the dying thread, and after
 * a backoff delay a new thread of the same name runs the body again from the start. The delay doubles
 * with each failure that follows another without normal work in between, from {@code initialDelayMs}
 * up to {@code maxDelayMs}; it is waited on the monotonic clock and cut short by {@link #requestStop}.
 *
 * <p>The body says when it has worked normally again ({@link #workedNormally}, e.g. after a delivery):
 * the first such call after a failure resets the delay and tells the listener it {@link
 * Listener#recovered recovered}, which is where the alarm is cleared and the part is no longer
 * degraded. A body that returns normally has ended for good (it was asked to stop).
 *
 * <p>What a failure leaves: whatever the body had in hand. The body must keep its own state so that
 * running it again from the start is safe (a forwarder re-reads from its last acknowledgement).
 *
 * <p>Threading: {@link #start}, {@link #requestStop}, {@link #join} and {@link #interrupt} from the
 * owner's lifecycle thread; {@link #workedNormally} from the body's thread; {@link #failing} from
 * any thread. The listener is called on the worker threads, never two at a time.
 */
public final class SupervisedThread {

    /** Hears of failures and recoveries; calls must not block for long. */
    public interface Listener {

        /**
         * The body threw {@code error}; a new thread runs it again in {@code restartInMs}.
         *
         * @param consecutiveFailures 1 for the first failure since the body last worked normally
         */
        void failed(Throwable error, int consecutiveFailures, long restartInMs);

        /** The body worked normally after one or more failures. */
        void recovered();
    }

    private final String name;
    private final Runnable body;
    private final long initialDelayMs;
    private final long maxDelayMs;
    private final Listener listener;
    private final Object lock = new Object();
    private volatile Thread current;
    private volatile boolean stopping;
    private volatile boolean failing;
    /** Failures since the body last worked normally; guarded by {@link #lock}. */
    private int consecutive;
    private long restarts;

    public SupervisedThread(String name, Runnable body, long initialDelayMs, long maxDelayMs, Listener listener) {
        if (initialDelayMs <= 0 || maxDelayMs < initialDelayMs) {
            throw new IllegalArgumentException("need 0 < initial <= max, was " + initialDelayMs + " and " + maxDelayMs);
        }
        this.name = Objects.requireNonNull(name, "name");
        this.body = Objects.requireNonNull(body, "body");
        this.initialDelayMs = initialDelayMs;
        this.maxDelayMs = maxDelayMs;
        this.listener = Objects.requireNonNull(listener, "listener");
    }

    /** Starts the first thread. */
    public void start() {
        synchronized (lock) {
            if (current != null || stopping) {
                return;
            }
            launch();
        }
    }

    private void launch() {
        Thread thread = new Thread(this::runOnce, name);
        thread.setDaemon(true);
        current = thread;
        thread.start();
    }

    private void runOnce() {
        try {
            body.run();
        } catch (Throwable error) {
            if (stopping) {
                return;
            }
            int failures;
            long delay;
            synchronized (lock) {
                failing = true;
                failures = ++consecutive;
                delay = delayMs(failures);
            }
            try {
                listener.failed(error, failures, delay);
            } catch (Throwable ignored) {
                // out of memory again, most likely: the restart below matters more than the report
            }
            if (awaitRestart(delay)) {
                synchronized (lock) {
                    if (!stopping) {
                        restarts++;
                        launch();
                    }
                }
            }
        }
    }

    private long delayMs(int failures) {
        return Math.min(maxDelayMs, initialDelayMs << Math.min(failures - 1, 30));
    }

    /** Waits {@code delayMs} on the monotonic clock; false when a stop came first. */
    private boolean awaitRestart(long delayMs) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(delayMs);
        synchronized (lock) {
            try {
                long remaining;
                while (!stopping && (remaining = deadline - System.nanoTime()) > 0) {
                    TimeUnit.NANOSECONDS.timedWait(lock, remaining);
                }
            } catch (InterruptedException e) {
                return false;
            }
            return !stopping;
        }
    }

    /**
     * Called by the body after a unit of normal work: after a failure, resets the delay and tells the
     * listener once. Cheap when nothing failed (one volatile read).
     */
    public void workedNormally() {
        if (!failing) {
            return;
        }
        synchronized (lock) {
            if (!failing) {
                return;
            }
            failing = false;
            consecutive = 0;
        }
        listener.recovered();
    }

    /** True from a failure until the restarted body worked normally again. */
    public boolean failing() {
        return failing;
    }

    /** How many times a new thread was started after a failure. */
    public long restarts() {
        synchronized (lock) {
            return restarts;
        }
    }

    /** No restart after this; a restart being waited for is called off. The running body is not told. */
    public void requestStop() {
        synchronized (lock) {
            stopping = true;
            lock.notifyAll();
        }
    }

    /** Interrupts the current thread. */
    public void interrupt() {
        Thread thread = current;
        if (thread != null) {
            thread.interrupt();
        }
    }

    /** Waits up to {@code millis} for the current thread (and any it restarts) to end; true when it did. */
    public boolean join(long millis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (true) {
            Thread thread = current;
            if (thread == null || thread == Thread.currentThread()) {
                return true;
            }
            long remaining = deadline - System.nanoTime();
            if (remaining > 0) {
                TimeUnit.NANOSECONDS.timedJoin(thread, remaining);
            }
            if (thread == current && !thread.isAlive()) {
                return true;
            }
            if (deadline - System.nanoTime() <= 0) {
                return !current.isAlive();
            }
        }
    }
}
