package io.qubiq.storeforward;

import io.qubiq.core.tag.Custody;
import java.util.List;
import java.util.Optional;

/**
 * The producers' way into a channel: decides, for each submitted batch, between the hand-off, the
 * buffer and (for a synchronous channel) a write on the producer's thread, as {@link
 * StoreForwardChannel}'s class doc promises, and keeps the ordering latch's rule while doing it.
 *
 * <p><b>How the latch is kept.</b> A batch goes to the buffer under the latch's shared lock when the
 * latch is closed; it is handed off (or, synchronously, written) only under a lock after re-checking
 * that the latch is open, and the exclusive lock is taken for everything that moves the hand-off into
 * the buffer ({@link ChannelParts#spillLocked}) or writes on the producer's thread. Items are encoded
 * before any lock is taken when the batch will be buffered anyway.
 *
 * <p><b>Owns</b> nothing: it reads and changes the channel's {@link ChannelParts} (its latch, hand-off,
 * counters and state). A crash costs what the hand-off holds (see {@link HandOff}), nothing buffered.
 *
 * <p><b>Threading.</b> Safe for any number of producer threads; it never blocks on the destination,
 * except a synchronous channel's producer, which writes under the exclusive latch lock.
 */
final class SubmitPath<T> {

    private final ChannelParts<T> parts;

    SubmitPath(ChannelParts<T> parts) {
        this.parts = parts;
    }

    /** See {@link StoreForwardChannel#submit(List, Custody)}: the custody is released exactly once. */
    SubmitOutcome submit(List<T> batch, Custody custody) throws ChannelFullException, ChannelException {
        boolean handedOff = false;
        try {
            SubmitOutcome outcome = submitHolding(batch, custody);
            handedOff = outcome == SubmitOutcome.HANDED_OFF;
            return outcome;
        } finally {
            HandOff<T> current = parts.handOff;
            if (current != null) {
                current.releaseSettled(); // what a spill moved into the buffer
            }
            if (!handedOff) {
                custody.release();
            }
        }
    }

    private SubmitOutcome submitHolding(List<T> batch, Custody custody) throws ChannelFullException, ChannelException {
        if (batch.isEmpty()) {
            return SubmitOutcome.DELIVERED;
        }
        OrderingLatch latch = parts.requireRunning();
        if (parts.synchronous) {
            return submitSynchronously(latch, batch);
        }
        List<byte[]> items = latch.isClosed() || !fastPathAllowed() ? parts.encode(batch) : null;
        latch.shared().lock();
        try {
            if (latch.isClosed()) {
                appendEncoded(latch, items, batch);
                return SubmitOutcome.BUFFERED;
            }
            if (fastPathAllowed() && offer(batch, custody)) {
                return SubmitOutcome.HANDED_OFF;
            }
        } finally {
            latch.shared().unlock();
        }
        latch.exclusive().lock();
        try {
            if (latch.isClosed()) {
                appendEncoded(latch, items, batch);
                return SubmitOutcome.BUFFERED;
            }
            if (fastPathAllowed() && offer(batch, custody)) {
                return SubmitOutcome.HANDED_OFF;
            }
            parts.spillLocked(latch, batch);
            return SubmitOutcome.BUFFERED;
        } finally {
            latch.exclusive().unlock();
        }
    }

    /** The contract before the hand-off: the producer's thread writes on the fast path. */
    private SubmitOutcome submitSynchronously(OrderingLatch latch, List<T> batch)
            throws ChannelFullException, ChannelException {
        List<byte[]> items = latch.isClosed() || !fastPathAllowed() ? parts.encode(batch) : null;
        latch.shared().lock();
        try {
            if (latch.isClosed() || !fastPathAllowed()) {
                appendEncoded(latch, items, batch);
                return SubmitOutcome.BUFFERED;
            }
        } finally {
            latch.shared().unlock();
        }
        latch.exclusive().lock();
        try {
            if (latch.isClosed() || !fastPathAllowed()) {
                appendEncoded(latch, items, batch);
                return SubmitOutcome.BUFFERED;
            }
            if (!parts.handOff.isEmpty()) {
                // handed off before the channel became synchronous (a live change to durability always): those
                // batches are older, so this one goes behind them into the buffer instead of overtaking them
                parts.spillLocked(latch, batch);
                return SubmitOutcome.BUFFERED;
            }
            return writeFastPath(latch, batch);
        } finally {
            latch.exclusive().unlock();
        }
    }

    /** Under a latch lock: appends the batch, with {@code items} when it was encoded before the lock. */
    private void appendEncoded(OrderingLatch latch, List<byte[]> items, List<T> batch)
            throws ChannelFullException, ChannelException {
        parts.appendLocked(latch, ChannelParts.envelopes(items != null ? items : parts.encode(batch), 0, 0), 0);
    }

    /** Hands the batch off when there is room: counted in (its size estimated) and the forwarder woken. */
    private boolean offer(List<T> batch, Custody custody) {
        long bytes = parts.fastPathBytes.estimate(batch);
        if (!parts.handOff.offer(batch, bytes, custody)) {
            return false;
        }
        parts.counters.itemsIn.addAndGet(batch.size());
        parts.counters.bytesIn.add(bytes);
        parts.wakeups.signal(Wakeups.Reason.DATA);
        return true;
    }

    /**
     * Under the exclusive latch lock: writes the batch directly; on any failure buffers what must be
     * kept (see {@link DirectWrite}), then rethrows an {@link Error} the sink threw.
     */
    private SubmitOutcome writeFastPath(OrderingLatch latch, List<T> batch)
            throws ChannelFullException, ChannelException {
        ChannelCounters counters = parts.counters;
        Optional<DirectWrite.Failure> failed = parts.direct.write(batch);
        if (failed.isPresent()) {
            DirectWrite.Failure failure = failed.get();
            // items written anyway came in and went out here; the rest are counted in when appended
            counters.itemsIn.addAndGet(failure.written());
            counters.bytesIn.add(failure.writtenBytes());
            counters.itemsDelivered.addAndGet(failure.written());
            counters.bytesOut.add(failure.writtenBytes());
            parts.appendLocked(latch, failure.toBuffer(), 0);
            failure.rethrowError();
            return SubmitOutcome.BUFFERED;
        }
        long bytes = parts.fastPathBytes.estimate(batch);
        counters.itemsIn.addAndGet(batch.size());
        counters.bytesIn.add(bytes);
        counters.itemsDelivered.addAndGet(batch.size());
        counters.bytesOut.add(bytes);
        parts.state = ChannelState.FAST_PATH;
        return SubmitOutcome.DELIVERED;
    }

    private boolean fastPathAllowed() {
        return parts.running && parts.config.fastPath() && parts.liveness.state().allowsAttempts()
                && parts.state != ChannelState.STALLED;
    }
}
