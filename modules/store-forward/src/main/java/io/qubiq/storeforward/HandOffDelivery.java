package io.qubiq.storeforward;

import io.qubiq.buffer.BufferException;
import io.qubiq.buffer.BufferReader;
import io.qubiq.buffer.SequenceRange;
import io.qubiq.core.event.DataLoss;
import io.qubiq.core.event.EventPublisher;
import io.qubiq.core.event.LossReason;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The forwarder's side of the {@link HandOff}: writes the oldest handed-off batches (up to the
 * {@link WriteWindow}'s items, at least one batch) with a {@link DirectWrite}, and when that write
 * fails moves what must be kept into the buffer ahead of what is still handed off, closing the latch
 * (the buffer's forwarder loop takes over from there).
 *
 * <p>The write window is the one the buffer's {@link DeliveryAttempt} uses: a handed-off write the
 * destination's timeout cut off shrinks it, and a quick one lets it grow, as for buffered writes.
 * While timeouts keep it below a batch, a handed-off batch larger than the window is not written
 * from memory (it would time out again, costing each item an attempt): it is moved into the buffer
 * unwritten, with what is queued behind it, and delivered from there in pieces of the window's size.
 *
 * <p>Whatever the write throws, the batch in flight is resolved before this returns or throws: an
 * {@link Error} is rethrown only after the batch is in the buffer, so a restarted forwarder finds
 * the hand-off free and the batch at the head of the buffer, its attempt counted.
 *
 * <p>It sees its channel only through a {@link HandOffContext}, as the forwarder does (pinned by
 * {@code ChannelRolesTest}).
 *
 * <p>Threading: the forwarder thread only; buffering takes the latch's exclusive lock.
 */
final class HandOffDelivery<T> {

    private static final Logger log = LoggerFactory.getLogger(HandOffDelivery.class);

    private final HandOffContext<T> channel;
    private final HandOff<T> handOff;
    private final OrderingLatch latch;
    private final BufferReader reader;
    private final DirectWrite<T> direct;
    private final WriteWindow window;
    private final LongSupplier nanoClock;
    private final EventPublisher events;
    private final Clock clock;

    /**
     * @param channel   what it needs of the channel: the forwarder's context, the codec, the appends
     * @param window    how many items to write at a time, shared with the buffer's {@link DeliveryAttempt}
     * @param nanoClock monotonic time, to measure how long writes take
     */
    HandOffDelivery(HandOffContext<T> channel, HandOff<T> handOff, OrderingLatch latch, BufferReader reader,
                    DirectWrite<T> direct, WriteWindow window, LongSupplier nanoClock, EventPublisher events,
                    Clock clock) {
        this.channel = channel;
        this.handOff = handOff;
        this.latch = latch;
        this.reader = reader;
        this.direct = direct;
        this.window = window;
        this.nanoClock = nanoClock;
        this.events = events;
        this.clock = clock;
    }

    /**
     * What one {@link #deliver} did.
     *
     * @param delivered    the sink took the batch
     * @param acknowledged the last sequence acknowledged in the buffer when a spill had copied the
     *                     batch there meanwhile, else {@link Long#MIN_VALUE}
     */
    record Result(boolean delivered, long acknowledged) {
        static final Result NOTHING = new Result(false, Long.MIN_VALUE);
    }

    /**
     * Writes the oldest handed-off batches. On any failure the batch goes to the buffer (and an
     * {@link Error} the sink threw is rethrown after that); so does a batch larger than the write
     * window, unwritten. Either way, once that returned, the custody of what left the hand-off is
     * released ({@link HandOff#releaseSettled()}).
     */
    Result deliver() {
        try {
            return deliverOldest();
        } finally {
            handOff.releaseSettled();
        }
    }

    private Result deliverOldest() {
        List<T> batch = handOff.take(window.items());
        if (batch.isEmpty()) {
            return Result.NOTHING;
        }
        if (batch.size() > window.items()) {
            // the destination takes fewer at a time now: the buffer's delivery writes it in pieces
            List<byte[]> unwritten;
            try {
                unwritten = channel.encode(batch);
            } catch (RuntimeException | Error e) {
                release(batch.size(), "could not be encoded for the buffer: " + e);
                throw e;
            }
            List<byte[]> payloads = new ArrayList<>(unwritten.size());
            for (byte[] item : unwritten) {
                payloads.add(ItemEnvelope.wrap(0, 0, item));
            }
            keep(payloads, "moved unwritten into the buffer (the write window is smaller than their batch)");
            return Result.NOTHING;
        }
        Optional<DirectWrite.Failure> failed;
        long started = nanoClock.getAsLong();
        try {
            failed = direct.write(batch);
        } catch (RuntimeException | Error e) {
            // the codec could not encode the failed batch for the buffer: it cannot be kept
            release(batch.size(), "could not be encoded for the buffer after their write failed: " + e);
            throw e;
        }
        long elapsed = nanoClock.getAsLong() - started;
        ChannelCounters counters = channel.counters();
        if (failed.isPresent()) {
            DirectWrite.Failure failure = failed.get();
            if (failure.timedOut() && batch.size() > 1) {
                window.timedOut(batch.size(), elapsed);
            }
            counters.itemsDelivered.addAndGet(failure.written());
            counters.bytesOut.add(failure.writtenBytes());
            keep(failure.toBuffer(), "kept after their write failed");
            failure.rethrowError();
            return Result.NOTHING;
        }
        window.succeeded(batch.size(), elapsed);
        counters.itemsDelivered.addAndGet(batch.size());
        counters.bytesOut.add(handOff.inFlightBytes());
        SequenceRange copies = handOff.complete();
        if (copies == null) {
            channel.state(ChannelState.FAST_PATH);
            return new Result(true, Long.MIN_VALUE);
        }
        try {
            reader.acknowledge(copies.last());
        } catch (BufferException e) {
            // not acknowledged: the copies are delivered again from the buffer (at least once)
            counters.error("buffer: " + e.getMessage(), clock.instant());
            return new Result(true, Long.MIN_VALUE);
        }
        return new Result(true, copies.last());
    }

    /**
     * After a handed-off batch failed: {@code payloads} (what of it must be kept) go to the buffer,
     * then the queued hand-off behind them, and the latch closes. When a spill already copied the
     * batch into the buffer there is nothing to add: the backlog retries it.
     */
    private void keep(List<byte[]> payloads, String what) {
        latch.exclusive().lock();
        try {
            if (handOff.complete() != null) {
                return;
            }
            List<byte[]> all = new ArrayList<>(payloads);
            for (byte[] item : channel.encode(handOff.drainQueued())) {
                all.add(ItemEnvelope.wrap(0, 0, item));
            }
            if (all.isEmpty()) {
                return;
            }
            try {
                channel.appendLocked(latch, all, all.size());
            } catch (ChannelFullException | ChannelException e) {
                log.error("Channel {}: {} handed-off items could not be {}: {}",
                        channel.connection(), all.size(), what, e.getMessage());
                events.lost(DataLoss.of(clock.instant(), "channel", channel.connection(), LossReason.REFUSED,
                        all.size(), all.stream().mapToLong(p -> p.length).sum(),
                        "handed-off items could not be " + what + ": " + e.getMessage()));
            }
        } finally {
            latch.exclusive().unlock();
        }
    }

    /** Frees the hand-off of a batch that cannot be kept, reporting it as lost. */
    private void release(int items, String why) {
        handOff.complete();
        log.error("Channel {}: {} handed-off items are lost: they {}", channel.connection(), items, why);
        events.lost(DataLoss.of(clock.instant(), "channel", channel.connection(), LossReason.REFUSED, items, 0,
                "handed-off items " + why));
    }
}
