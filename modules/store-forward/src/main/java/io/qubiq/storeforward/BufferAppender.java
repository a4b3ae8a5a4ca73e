package io.qubiq.storeforward;

import io.qubiq.buffer.BufferException;
import io.qubiq.buffer.BufferFullException;
import io.qubiq.buffer.BufferIOException;
import io.qubiq.buffer.BufferStats;
import io.qubiq.buffer.DurableBuffer;
import io.qubiq.buffer.OverflowPolicy;
import io.qubiq.buffer.SequenceRange;
import io.qubiq.core.disk.DiskReserve;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Appends a channel's batches to its durable buffer, for every path that buffers (a producer's
 * submit, a spill of the hand-off, a failed direct write, a failed hand-off, an operator's retry),
 * and says what a failed append means:
 * <ul>
 *   <li>the buffer at its limit ({@link BufferFullException}): nothing stored, the channel shows
 *       {@code FULL}, the refusal counted and in the loss ledger ({@code disk_full} while the disk is
 *       in its critical reserve), {@link ChannelFullException};
 *   <li>the disk failed ({@link BufferIOException}): the records stored before the failure are
 *       counted in and the latch closes behind them; on a full disk the rest is a {@code disk_full}
 *       loss, logged once per spell; {@link ChannelException};
 *   <li>any other buffer failure: {@link ChannelException}, nothing assumed stored.
 * </ul>
 * While the disk is in its critical reserve the buffer's size is held: appends behave as at
 * {@code max_bytes} per the overflow policy.
 *
 * <p>Threading: called by producers and the forwarder with a lock of the channel's ordering latch
 * held; its flags are atomic.
 */
final class BufferAppender {

    private static final Logger log = LoggerFactory.getLogger(BufferAppender.class);

    private final String connection;
    private final OverflowPolicy policy;
    private final ChannelCounters counters;
    private final PressureAlarms pressure;
    private final ChannelLosses losses;
    private final Wakeups wakeups;
    private final Clock clock;
    private final Supplier<DiskReserve> diskReserve;
    private final Runnable full;
    /** True from a disk-full append failure until an append succeeds: logged once per such spell. */
    private final AtomicBoolean diskFullLogged = new AtomicBoolean();
    private final AtomicBoolean heldForDisk = new AtomicBoolean();

    /**
     * @param diskReserve whether the disk is in its critical reserve now
     * @param full        shows the channel as {@code FULL} (an append was refused at the limit)
     */
    BufferAppender(String connection, OverflowPolicy policy, ChannelCounters counters, PressureAlarms pressure,
                   ChannelLosses losses, Wakeups wakeups, Clock clock, Supplier<DiskReserve> diskReserve,
                   Runnable full) {
        this.connection = connection;
        this.policy = policy;
        this.counters = counters;
        this.pressure = pressure;
        this.losses = losses;
        this.wakeups = wakeups;
        this.clock = clock;
        this.diskReserve = diskReserve;
        this.full = full;
    }

    /**
     * Appends to {@code buffer} under a lock of {@code latch} the caller holds, then closes the latch
     * and wakes the forwarder. The first {@code alreadyIn} payloads were counted in when they were
     * handed off. Null when {@code payloads} is empty.
     */
    SequenceRange append(DurableBuffer buffer, OrderingLatch latch, List<byte[]> payloads, int alreadyIn)
            throws ChannelFullException, ChannelException {
        if (payloads.isEmpty()) {
            return null;
        }
        boolean diskCritical = holdForDisk(buffer);
        SequenceRange range;
        try {
            range = buffer.appendBatch(payloads);
        } catch (BufferFullException e) {
            full.run();
            long refusedBytes = payloads.stream().mapToLong(p -> p.length - ItemEnvelope.HEADER_BYTES).sum();
            BufferStats stats = buffer.stats();
            pressure.noteRefused(payloads.size());
            if (diskCritical) {
                losses.refusedDiskFull(payloads.size(), refusedBytes);
                throw ChannelFullException.diskAlmostFull(connection, stats.usedBytes(), e);
            }
            losses.refused(payloads.size(), refusedBytes);
            throw new ChannelFullException(connection, stats.usedBytes(), stats.maxBytes(), e);
        } catch (BufferIOException e) {
            counters.error("buffer: " + e.getMessage(), clock.instant());
            storageFailed(latch, payloads, alreadyIn, e);
            throw new ChannelException("store-and-forward buffer of '" + connection + "' could not store the batch: "
                    + e.getMessage(), e);
        } catch (BufferException | IllegalStateException e) {
            counters.error("buffer: " + e.getMessage(), clock.instant());
            throw new ChannelException("store-and-forward buffer of '" + connection + "' could not store the batch: "
                    + e.getMessage(), e);
        }
        latch.close();
        if (diskFullLogged.get() && diskFullLogged.getAndSet(false)) {
            log.info("Channel {}: its buffer stores new items again", connection);
        }
        long bytes = 0;
        for (int i = alreadyIn; i < payloads.size(); i++) {
            bytes += payloads.get(i).length - ItemEnvelope.HEADER_BYTES;
        }
        counters.itemsIn.addAndGet(payloads.size() - alreadyIn);
        counters.bytesIn.add(bytes);
        pressure.noteAppended(buffer.stats(), diskCritical);
        wakeups.signal(Wakeups.Reason.DATA);
        return range;
    }

    /**
     * After an append failed on the disk: the first records of a batch may be stored all the same
     * ({@link BufferIOException#storedRecords()}); they are counted in and the latch closes behind
     * them, so nothing overtakes them. On a full disk, the producer's items that were not stored are
     * told to the loss ledger as {@code disk_full} (items counted in at a hand-off are the hand-off's
     * to account for).
     */
    private void storageFailed(OrderingLatch latch, List<byte[]> payloads, int alreadyIn, BufferIOException e) {
        int stored = Math.min(e.storedRecords(), payloads.size());
        if (stored > 0) {
            latch.close();
            for (int i = alreadyIn; i < stored; i++) {
                counters.itemsIn.incrementAndGet();
                counters.bytesIn.add(payloads.get(i).length - ItemEnvelope.HEADER_BYTES);
            }
            wakeups.signal(Wakeups.Reason.DATA);
        }
        if (!e.diskFull()) {
            return;
        }
        long lostBytes = 0;
        int from = Math.max(alreadyIn, stored);
        for (int i = from; i < payloads.size(); i++) {
            lostBytes += payloads.get(i).length - ItemEnvelope.HEADER_BYTES;
        }
        if (payloads.size() > from) {
            if (!diskFullLogged.getAndSet(true)) {
                log.error("Channel {}: the disk is full: its buffer cannot store new items ({}); they are refused and"
                        + " entered in the loss ledger as disk_full until space is freed", connection, e.getMessage());
            }
            losses.writeFailedDiskFull(payloads.size() - from, lostBytes);
        }
    }

    /** Holds or releases the buffer's size when the disk's state changed; true while held. */
    private boolean holdForDisk(DurableBuffer buffer) {
        boolean critical = diskReserve.get().critical();
        if (heldForDisk.get() != critical && heldForDisk.compareAndSet(!critical, critical)) {
            buffer.holdSize(critical);
            if (critical) {
                log.warn("Channel {}: disk almost full: its buffer stops growing ({} bytes) and behaves as at its"
                        + " max_bytes ({}) until space is freed", connection, buffer.stats().usedBytes(),
                        policy == OverflowPolicy.REFUSE
                                ? "refusing new items" : "dropping its oldest items");
            } else {
                log.info("Channel {}: disk space is back; the buffer may grow to its max_bytes again", connection);
            }
        }
        return critical;
    }
}
