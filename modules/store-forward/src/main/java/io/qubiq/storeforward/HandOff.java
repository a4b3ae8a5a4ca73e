package io.qubiq.storeforward;

import io.qubiq.buffer.SequenceRange;
import io.qubiq.core.tag.Custody;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The in-memory hand-off from producers to the forwarder while the ordering latch is open: what a
 * producer's {@code submit} answers with instead of a network call.
 *
 * <p><b>Contents.</b> Batches queued in submit order, at most {@code maxItems} items (one batch of
 * any size is always taken when nothing is queued), and at most one batch in flight: taken by the
 * forwarder and being written. Every item in here is older than every item in the buffer: items
 * enter only while the latch is open (the buffer empty), and every append to the buffer while the
 * latch is open first moves the whole hand-off into the buffer ({@link #spill}), in order, the
 * in-flight batch first.
 *
 * <p><b>Slow destinations.</b> The forwarder takes whole batches up to the channel's {@link
 * WriteWindow} (at least one batch), so a handed-off write is never larger than the destination was
 * last able to take; a single batch larger than a window that timeouts shrank is not written from
 * here but moved into the buffer unwritten, in order, and delivered in smaller pieces from there
 * ({@link HandOffDelivery}).
 *
 * <p><b>A spilled in-flight batch.</b> When a spill copies the batch in flight into the buffer, its
 * sequence range is remembered: if the write then succeeds, the forwarder acknowledges that range
 * (the copies are at the head of the buffer: it was empty before the spill), so nothing is
 * delivered twice; if it fails, the copies are simply delivered from the buffer like any backlog.
 *
 * <p><b>What a crash costs.</b> The hand-off is memory: a {@code kill -9} or power loss loses what
 * it holds (bounded by {@code maxItems} plus the batch in flight), the same window as the tag bus's
 * own queue in front of it. A normal stop moves it into the buffer.
 *
 * <p><b>Custody.</b> A batch may be offered with the producer's {@link Custody} (the shares of the
 * MQTT messages its items came from). The hand-off holds it while it holds the batch and lets it go
 * once the batch left it: written by the forwarder, moved into the buffer by a spill, kept in the
 * buffer after a failed write, or accounted for as lost. Leaving happens under this object's lock;
 * the custody is only released by {@link #releaseSettled()}, which the forwarder and the channel call
 * after the write or append that took the batch returned, so no source is acknowledged before its
 * items are safe.
 *
 * <p><b>Threading.</b> Every method is synchronized. Producers offer; the forwarder takes and
 * completes; spills run with the latch's exclusive lock held, so no producer appends meanwhile.
 */
final class HandOff<T> {

    /**
     * Appends items to the buffer and answers their sequence range; the first {@code handedOff} of
     * them came from the hand-off (counted in when they were handed off).
     */
    @FunctionalInterface
    interface Appender<T> {
        SequenceRange append(List<T> items, int handedOff) throws ChannelFullException, ChannelException;
    }

    private final int maxItems;
    private final ArrayDeque<List<T>> queued = new ArrayDeque<>();
    private final ArrayDeque<Long> queuedBytes = new ArrayDeque<>();
    private int queuedItems;
    private List<T> inFlight;
    private long inFlightBytes;
    private SequenceRange inFlightBuffered;
    /** One custody per queued batch ({@link Custody#NONE} for most), in step with {@link #queued}. */
    private final ArrayDeque<Custody> queuedCustody = new ArrayDeque<>();
    private final List<Custody> inFlightCustody = new ArrayList<>();
    /** Custody of batches that left the hand-off, to release once their write or append returned. */
    private final List<Custody> settled = new ArrayList<>();

    HandOff(int maxItems) {
        this.maxItems = Math.max(1, maxItems);
    }

    /**
     * Queues a batch when there is room; false when the hand-off is full (the caller spills). {@code
     * bytes} is the batch's estimated size, counted in by the producer and out by the forwarder.
     */
    synchronized boolean offer(List<T> batch, long bytes) {
        return offer(batch, bytes, Custody.NONE);
    }

    /** As {@link #offer(List, long)}, the hand-off holding {@code custody} while it holds the batch. */
    synchronized boolean offer(List<T> batch, long bytes, Custody custody) {
        if (!queued.isEmpty() && queuedItems + batch.size() > maxItems) {
            return false;
        }
        queuedCustody.add(custody);
        queued.add(List.copyOf(batch));
        queuedBytes.add(bytes);
        queuedItems += batch.size();
        return true;
    }

    /** True when nothing is queued or in flight. */
    synchronized boolean isEmpty() {
        return queued.isEmpty() && inFlight == null;
    }

    /** Items held here and not yet in the buffer: queued, and the batch in flight unless a spill copied it. */
    synchronized int items() {
        return queuedItems + (inFlight != null && inFlightBuffered == null ? inFlight.size() : 0);
    }

    /** True when batches wait to be taken. */
    synchronized boolean hasQueued() {
        return !queued.isEmpty();
    }

    /**
     * Takes queued batches, whole, up to {@code limit} items (at least one batch) as the batch in
     * flight; empty when nothing is queued. Forwarder only, never while a batch is in flight.
     */
    synchronized List<T> take(int limit) {
        if (inFlight != null) {
            throw new IllegalStateException("a hand-off batch is already in flight");
        }
        if (queued.isEmpty()) {
            return List.of();
        }
        List<T> batch = new ArrayList<>(queued.poll());
        long bytes = queuedBytes.poll();
        inFlightCustody.add(queuedCustody.poll());
        while (!queued.isEmpty() && batch.size() + queued.peek().size() <= limit) {
            batch.addAll(queued.poll());
            bytes += queuedBytes.poll();
            inFlightCustody.add(queuedCustody.poll());
        }
        inFlightBytes = bytes;
        queuedItems -= batch.size();
        inFlight = batch;
        inFlightBuffered = null;
        return batch;
    }

    /** The estimated size of the batch in flight. */
    synchronized long inFlightBytes() {
        return inFlightBytes;
    }

    /**
     * Ends the batch in flight. Returns the range its copies got in the buffer when a spill put them
     * there meanwhile, else null.
     */
    synchronized SequenceRange complete() {
        settled.addAll(inFlightCustody); // written, lost or kept: the caller says which, then releases
        inFlightCustody.clear();
        SequenceRange buffered = inFlightBuffered;
        inFlight = null;
        inFlightBuffered = null;
        return buffered;
    }

    /** Removes and returns the queued items, in order (for a failed batch's successors). */
    synchronized List<T> drainQueued() {
        List<T> all = new ArrayList<>(queuedItems);
        queued.forEach(all::addAll);
        queued.clear();
        queuedBytes.clear();
        queuedItems = 0;
        settled.addAll(queuedCustody); // the caller buffers them (or reports them lost), then releases
        queuedCustody.clear();
        return all;
    }

    /**
     * Moves everything here into the buffer, in order (the batch in flight first, then the queued
     * ones), followed by {@code after}, with one append; the hand-off is empty of queued batches
     * afterwards and a batch in flight is marked as buffered. On failure nothing changes.
     *
     * @return how many items of the hand-off went to the buffer ({@code after} not included)
     */
    synchronized int spill(List<T> after, Appender<T> appender) throws ChannelFullException, ChannelException {
        List<T> all = new ArrayList<>();
        boolean flying = inFlight != null && inFlightBuffered == null;
        if (flying) {
            all.addAll(inFlight);
        }
        for (List<T> batch : queued) {
            all.addAll(batch);
        }
        int mine = all.size();
        all.addAll(after);
        if (all.isEmpty()) {
            return 0;
        }
        SequenceRange range = appender.append(all, mine);
        if (flying) {
            inFlightBuffered = new SequenceRange(range.first(), range.first() + inFlight.size() - 1);
        }
        queued.clear();
        queuedBytes.clear();
        queuedItems = 0;
        settled.addAll(inFlightCustody); // in the buffer now, whatever the write in flight does
        inFlightCustody.clear();
        settled.addAll(queuedCustody);
        queuedCustody.clear();
        return mine;
    }

    /**
     * Releases the custody of every batch that left the hand-off (see the class doc). Call after the
     * write or append that took them returned; never while holding a lock a source's acknowledgement
     * could need. Idempotent.
     */
    void releaseSettled() {
        List<Custody> due;
        synchronized (this) {
            if (settled.isEmpty()) {
                return;
            }
            due = List.copyOf(settled);
            settled.clear();
        }
        due.forEach(Custody::release);
    }

    /**
     * Lets go of every custody still held (queued and in flight), then releases them: on a stop whose
     * spill into the buffer failed (those items are reported lost). Nothing else changes.
     */
    void releaseAll() {
        synchronized (this) {
            settled.addAll(inFlightCustody);
            inFlightCustody.clear();
            settled.addAll(queuedCustody);
            queuedCustody.clear();
        }
        releaseSettled();
    }
}
