package io.qubiq.core.tag;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Travels with the values of one message from a source that can redeliver (an MQTT subscription at
 * QoS 1 or 2) and tells the source when it may acknowledge: once every durable consumer that took
 * the values has released its {@linkplain #share() share}.
 *
 * <p><b>Contract.</b> The source opens the receipt with what to run when the values are kept
 * ({@code onKept}: the acknowledgement), publishes the message's values with it ({@link
 * TagPublisher#publish(TagValue, CustodyReceipt)}), and then either calls {@link #published()} (all
 * values were handed over) or {@link #abandon()} (some were not: the message must not be
 * acknowledged, so the broker redelivers it). Every consumer that keeps data durably takes a share
 * while the value is handed to it and releases it under the rule of {@link Custody}; consumers that
 * keep nothing (live views) take none. {@code onKept} runs exactly once, on the thread that gave back
 * the last hold (the source's own, when nobody took a share), after {@code published()} and every
 * share released; never after {@code abandon()}.
 *
 * <p><b>What it does not do.</b> It has no timeout: a share that is never released holds the
 * acknowledgement for ever, so every holder must release on every path (see {@link Custody}). The
 * holders' own bounds (a batch's linger, a hand-off that spills when full, a sink's write timeout)
 * bound how long a receipt stays open.
 *
 * <p>Thread-safe; {@code onKept} must not block and must not throw.
 */
public final class CustodyReceipt {

    /** The source's own hold, from open until {@link #published()} or {@link #abandon()}. */
    private final AtomicInteger holds = new AtomicInteger(1);
    private final AtomicBoolean sourceDone = new AtomicBoolean();
    private final Runnable onKept;
    private volatile boolean abandoned;
    private volatile boolean kept;

    private CustodyReceipt(Runnable onKept) {
        this.onKept = java.util.Objects.requireNonNull(onKept, "onKept");
    }

    /** A receipt whose values are kept when {@code onKept} runs. */
    public static CustodyReceipt open(Runnable onKept) {
        return new CustodyReceipt(onKept);
    }

    /**
     * A share for one consumer that takes custody of a value of this message; release it under the
     * rule of {@link Custody}. Must be taken before the source calls {@link #published()}.
     */
    public Custody share() {
        if (holds.getAndIncrement() <= 0) {
            holds.decrementAndGet();
            throw new IllegalStateException("a share of a completed receipt was asked for: take shares while"
                    + " the values are published");
        }
        AtomicBoolean released = new AtomicBoolean();
        return () -> {
            if (released.compareAndSet(false, true)) {
                releaseOne();
            }
        };
    }

    /** The source handed every value over: the receipt completes once the shares are released. */
    public void published() {
        if (sourceDone.compareAndSet(false, true)) {
            releaseOne();
        }
    }

    /** The source did not hand every value over: {@code onKept} will not run (the broker redelivers). */
    public void abandon() {
        abandoned = true;
        if (sourceDone.compareAndSet(false, true)) {
            releaseOne();
        }
    }

    /** True once {@code onKept} ran. */
    public boolean kept() {
        return kept;
    }

    /** Holds not yet given back: the source's own until it is done, plus one per unreleased share. */
    public int holds() {
        return holds.get();
    }

    private void releaseOne() {
        if (holds.decrementAndGet() == 0 && !abandoned) {
            kept = true;
            onKept.run();
        }
    }
}
