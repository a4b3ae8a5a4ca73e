package io.qubiq.storeforward;

import io.qubiq.core.error.UnknownOutcomeException;
import io.qubiq.core.health.ConnectionStatus;
import io.qubiq.core.sink.Sink;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A destination that is up but slow: every item costs {@code perItemNanos} of its own (fake,
 * monotonic) clock, and a write that would take longer than {@code timeoutNanos} is cut off at the
 * timeout, writing nothing, with the unknown outcome of a timeout, as a statement timeout would.
 * Records what it wrote and every write's size. Thread-safe.
 */
final class SlowerThanItsTimeoutSink implements Sink<String> {

    final AtomicLong nanos = new AtomicLong(1);
    private final long timeoutNanos;
    private final boolean idempotent;
    private volatile long perItemNanos;
    private final List<String> received = new ArrayList<>();
    private final List<Integer> writes = new ArrayList<>();

    SlowerThanItsTimeoutSink(long perItemNanos, long timeoutNanos, boolean idempotent) {
        this.perItemNanos = perItemNanos;
        this.timeoutNanos = timeoutNanos;
        this.idempotent = idempotent;
    }

    void perItemNanos(long value) {
        perItemNanos = value;
    }

    @Override
    public String id() {
        return "slow";
    }

    @Override
    public synchronized void write(List<String> batch) throws UnknownOutcomeException {
        writes.add(batch.size());
        long cost = perItemNanos * batch.size();
        if (cost > timeoutNanos) {
            nanos.addAndGet(timeoutNanos);
            throw UnknownOutcomeException.timedOut("canceling statement due to statement timeout", null);
        }
        nanos.addAndGet(cost);
        received.addAll(batch);
    }

    synchronized List<String> received() {
        return List.copyOf(received);
    }

    synchronized List<Integer> writes() {
        return List.copyOf(writes);
    }

    @Override
    public ConnectionStatus probe() {
        return ConnectionStatus.up(Instant.now());
    }

    @Override
    public boolean idempotent() {
        return idempotent;
    }

    @Override
    public void close() {
    }
}
