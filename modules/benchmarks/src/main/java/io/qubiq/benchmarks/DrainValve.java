package io.qubiq.benchmarks;

import io.qubiq.core.error.GatewayException;
import io.qubiq.core.error.TransientException;
import io.qubiq.core.health.ConnectionStatus;
import io.qubiq.core.sink.EncodedItems;
import io.qubiq.core.sink.EncodedWrites;
import io.qubiq.core.sink.Sink;
import io.qubiq.sink.questdb.QuestDbRow;
import java.util.List;

/**
 * The harness's tap in front of the historian's sink, so that a drain can be paused and resumed
 * and timed in slices that alternate with the direct writer (see {@link
 * HistorianThroughputHarness}, {@code --drain-slice}).
 *
 * <p>Only the forwarder's writes of buffered rows ({@link #writeEncoded}) are metered: each waits
 * while the rows that passed have reached the limit the harness released, then passes whole (a
 * batch is never split, so a slice may end up to one batch past its limit). Writes on the fast
 * path ({@link #write}) always pass: the historian's own thread must never wait here. Open (no
 * limit) until {@link #hold}; a write held here has not reached the sink, so the rows it carries
 * are neither sent nor counted.
 *
 * <p>Threading: the forwarder thread writes; the harness thread holds, releases and waits.
 */
final class DrainValve implements Sink<QuestDbRow>, EncodedWrites {

    private final Sink<QuestDbRow> sink;
    private final EncodedWrites encoded;
    /** Rows of buffered batches the sink took so far. Guarded by this. */
    private long passed;
    /** Writes wait while {@code passed >= limit}. Guarded by this. */
    private long limit = Long.MAX_VALUE;
    /** Metered writes the sink failed, in all. Guarded by this. */
    private long failures;
    /** When the first write after the last {@link #release} returned ({@link System#nanoTime}), 0 before. */
    private long firstPassNanos;

    /** @param sink a sink with {@link EncodedWrites}, as the historian's is */
    DrainValve(Sink<QuestDbRow> sink) {
        this.sink = sink;
        this.encoded = (EncodedWrites) sink;
    }

    @Override
    public void writeEncoded(EncodedItems items) throws GatewayException {
        synchronized (this) {
            while (passed >= limit) {
                try {
                    wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new TransientException("drain valve: interrupted while held");
                }
            }
        }
        try {
            encoded.writeEncoded(items);
        } catch (GatewayException | RuntimeException e) {
            synchronized (this) {
                failures++;
            }
            throw e;
        }
        synchronized (this) {
            if (firstPassNanos == 0) {
                firstPassNanos = System.nanoTime();
            }
            passed += items.size();
            if (passed >= limit) {
                notifyAll(); // only the slice's last write wakes the harness
            }
        }
    }

    /** Lets no further buffered batch through until {@link #release} or {@link #open}. */
    synchronized void hold() {
        limit = passed;
    }

    /** Lets buffered batches through until {@code rows} more passed; returns the new limit. */
    synchronized long release(long rows) {
        limit = passed + rows;
        firstPassNanos = 0;
        notifyAll();
        return limit;
    }

    /** No limit any more. */
    synchronized void open() {
        limit = Long.MAX_VALUE;
        notifyAll();
    }

    /** Waits until {@code target} rows passed in all; returns how many did. */
    synchronized long awaitPassed(long target) throws InterruptedException {
        while (passed < target) {
            wait();
        }
        return passed;
    }

    synchronized long passed() {
        return passed;
    }

    synchronized long failures() {
        return failures;
    }

    /** When the first write since the last {@link #release} returned ({@link System#nanoTime}), 0 if none yet. */
    synchronized long firstPassNanos() {
        return firstPassNanos;
    }

    @Override
    public void write(List<QuestDbRow> batch) throws GatewayException {
        sink.write(batch);
    }

    @Override
    public String id() {
        return sink.id();
    }

    @Override
    public ConnectionStatus probe() {
        return sink.probe();
    }

    @Override
    public boolean idempotent() {
        return sink.idempotent();
    }

    @Override
    public void close() {
        sink.close();
    }
}
