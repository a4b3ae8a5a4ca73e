package io.qubiq.testkit;

import io.qubiq.core.error.GatewayException;
import io.qubiq.core.error.PermanentException;
import io.qubiq.core.error.TransientException;
import io.qubiq.core.error.UnknownOutcomeException;
import io.qubiq.core.health.ConnectionStatus;
import io.qubiq.core.sink.Sink;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * A destination whose behaviour a test scripts, for unit tests of store-and-forward: it can be
 * down (transient), reject poison items (permanent, naming them or not, writing the others or
 * not), answer a write with a timeout after committing it or without committing it (unknown
 * outcome), and fail a given number of upcoming writes in a chosen way. Everything it accepted is
 * kept in order in {@link #received()}.
 *
 * <p>Threading: safe to script from the test thread while the channel writes.
 */
public final class ScriptedSink<T> implements Sink<T> {

    /** How a scripted write fails. */
    public enum Failure {
        /** Connection refused: nothing written. */
        TRANSIENT,
        /** Timed out after sending; the batch was committed. */
        UNKNOWN_COMMITTED,
        /** Timed out after sending; nothing was committed. */
        UNKNOWN_LOST,
        /** The driver throws an unchecked exception (a bug); nothing written. */
        UNCHECKED
    }

    /** How poison items are reported. */
    public enum PoisonReport {
        /** "Something in this batch": no indexes; nothing written. */
        UNNAMED,
        /** The poison indexes are named; nothing written. */
        NAMED,
        /** The poison indexes are named; every other item was written. */
        NAMED_PARTIAL
    }

    private final String id;
    private final List<T> received = Collections.synchronizedList(new ArrayList<>());
    private final Deque<Failure> upcoming = new ArrayDeque<>();
    private final AtomicBoolean down = new AtomicBoolean();
    private final AtomicInteger writes = new AtomicInteger();
    private final AtomicInteger concurrentWriters = new AtomicInteger();
    private final AtomicInteger maxConcurrentWriters = new AtomicInteger();
    private volatile Predicate<T> poison = item -> false;
    private volatile PoisonReport poisonReport = PoisonReport.UNNAMED;
    private volatile boolean idempotent;
    private volatile long writeDelayMillis;

    public ScriptedSink(String id) {
        this.id = id;
    }

    @Override
    public String id() {
        return id;
    }

    public ScriptedSink<T> down(boolean isDown) {
        down.set(isDown);
        return this;
    }

    public boolean isDown() {
        return down.get();
    }

    public ScriptedSink<T> poison(Predicate<T> predicate, PoisonReport report) {
        this.poison = predicate;
        this.poisonReport = report;
        return this;
    }

    public ScriptedSink<T> idempotent(boolean value) {
        this.idempotent = value;
        return this;
    }

    public ScriptedSink<T> writeDelayMillis(long value) {
        this.writeDelayMillis = value;
        return this;
    }

    /** The next {@code times} writes fail this way (after the down check). */
    public synchronized ScriptedSink<T> failNext(Failure failure, int times) {
        for (int i = 0; i < times; i++) {
            upcoming.add(failure);
        }
        return this;
    }

    private final java.util.Set<String> writerThreads = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /** The names of every thread that called {@link #write}. */
    public java.util.Set<String> writerThreads() {
        return java.util.Set.copyOf(writerThreads);
    }

    @Override
    public void write(List<T> batch) throws GatewayException {
        writerThreads.add(Thread.currentThread().getName());
        int writers = concurrentWriters.incrementAndGet();
        maxConcurrentWriters.accumulateAndGet(writers, Math::max);
        try {
            writes.incrementAndGet();
            if (writeDelayMillis > 0) {
                try {
                    Thread.sleep(writeDelayMillis);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new TransientException("interrupted");
                }
            }
            if (down.get()) {
                throw new TransientException("connection refused (scripted outage)");
            }
            Failure failure;
            synchronized (this) {
                failure = upcoming.poll();
            }
            if (failure == Failure.TRANSIENT) {
                throw new TransientException("connection reset (scripted)");
            }
            if (failure == Failure.UNCHECKED) {
                throw new IllegalStateException("driver bug (scripted)");
            }
            if (failure == Failure.UNKNOWN_LOST) {
                throw new UnknownOutcomeException("read timed out after sending (scripted, not committed)", null);
            }
            List<PermanentException.RejectedItem> rejected = new ArrayList<>();
            for (int i = 0; i < batch.size(); i++) {
                if (poison.test(batch.get(i))) {
                    String name = String.valueOf(batch.get(i));
                    rejected.add(new PermanentException.RejectedItem(i, "poison item "
                            + (name.length() > 20 ? name.substring(0, 20) + "…" : name)));
                }
            }
            if (!rejected.isEmpty()) {
                switch (poisonReport) {
                    case UNNAMED -> throw new PermanentException("constraint violation somewhere in the batch", null);
                    case NAMED -> throw new PermanentException("constraint violation", rejected, null);
                    case NAMED_PARTIAL -> {
                        for (int i = 0, r = 0; i < batch.size(); i++) {
                            if (r < rejected.size() && rejected.get(r).index() == i) {
                                r++;
                            } else {
                                received.add(batch.get(i));
                            }
                        }
                        throw PermanentException.partial("some documents rejected", rejected, null);
                    }
                }
            }
            received.addAll(batch);
            if (failure == Failure.UNKNOWN_COMMITTED) {
                throw new UnknownOutcomeException("read timed out after sending (scripted, committed)", null);
            }
        } finally {
            concurrentWriters.decrementAndGet();
        }
    }

    @Override
    public ConnectionStatus probe() {
        return down.get() ? ConnectionStatus.down(Instant.now(), "connection refused (scripted outage)")
                : ConnectionStatus.up(Instant.now());
    }

    @Override
    public boolean idempotent() {
        return idempotent;
    }

    /** A snapshot of everything written so far, in order. */
    public List<T> received() {
        synchronized (received) {
            return List.copyOf(received);
        }
    }

    public int writes() {
        return writes.get();
    }

    /** The most writes that were ever in progress at once: a sink must never see more than 1. */
    public int maxConcurrentWriters() {
        return maxConcurrentWriters.get();
    }

    @Override
    public void close() {
    }
}
