package io.qubiq.historian;

import io.qubiq.sink.questdb.QuestDbRow;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Collects rows and hands them to the historian's channel in batches: when {@code maxRows} are
 * pending, or when the oldest pending row has waited {@code linger}. A batch the channel does not
 * accept (buffer refused or failed, channel not running) is counted and logged, never thrown: the
 * tag-bus consumer must keep running. Those rows are lost; the ERROR log and
 * {@link #rowsRejected()} say how many.
 *
 * <p>Threading: {@link #add} (tag-bus consumer) and {@link #flushIfDue} (historian ticker) may
 * run concurrently; batches are handed on under one lock, in the order rows were added.
 */
final class RowBatcher {

    /** Where batches go: the channel's {@code submit}. */
    @FunctionalInterface
    interface Submitter {
        void submit(List<QuestDbRow> batch) throws Exception;
    }

    private static final Logger log = LoggerFactory.getLogger(RowBatcher.class);
    private static final Duration LOG_INTERVAL = Duration.ofSeconds(10);

    private final Submitter submitter;
    private final int maxRows;
    private final Duration linger;
    private final Clock clock;
    private final Object lock = new Object();
    private List<QuestDbRow> pending = new ArrayList<>();
    private Instant oldestPendingAt;
    private Instant lastLogAt = Instant.MIN;
    final AtomicLong rowsSubmitted = new AtomicLong();
    final AtomicLong rowsRejected = new AtomicLong();
    final AtomicLong submitFailures = new AtomicLong();

    RowBatcher(Submitter submitter, int maxRows, Duration linger, Clock clock) {
        this.submitter = submitter;
        this.maxRows = maxRows;
        this.linger = linger;
        this.clock = clock;
    }

    void add(List<QuestDbRow> rows) {
        if (rows.isEmpty()) {
            return;
        }
        synchronized (lock) {
            for (QuestDbRow row : rows) {
                if (pending.isEmpty()) {
                    oldestPendingAt = clock.instant();
                }
                pending.add(row);
                if (pending.size() >= maxRows) {
                    flushLocked();
                }
            }
            if (linger.isZero()) {
                flushLocked();
            }
        }
    }

    void flushIfDue() {
        synchronized (lock) {
            if (!pending.isEmpty() && !clock.instant().isBefore(oldestPendingAt.plus(linger))) {
                flushLocked();
            }
        }
    }

    void flush() {
        synchronized (lock) {
            flushLocked();
        }
    }

    int pending() {
        synchronized (lock) {
            return pending.size();
        }
    }

    long rowsRejected() {
        return rowsRejected.get();
    }

    private void flushLocked() {
        if (pending.isEmpty()) {
            return;
        }
        List<QuestDbRow> batch = pending;
        pending = new ArrayList<>();
        try {
            submitter.submit(batch);
            rowsSubmitted.addAndGet(batch.size());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            rejected(batch, e);
        } catch (Exception e) {
            rejected(batch, e);
        }
    }

    private void rejected(List<QuestDbRow> batch, Exception e) {
        submitFailures.incrementAndGet();
        long total = rowsRejected.addAndGet(batch.size());
        Instant now = clock.instant();
        if (now.isAfter(lastLogAt.plus(LOG_INTERVAL)) || lastLogAt == Instant.MIN) {
            lastLogAt = now;
            log.error("Historian lost {} row(s): its store-and-forward channel did not accept them ({}); {} row(s)"
                    + " lost so far", batch.size(), e.getMessage(), total);
        }
    }
}
