package io.qubiq.storeforward;

import io.qubiq.core.event.DataLoss;
import io.qubiq.core.event.LossReason;
import io.qubiq.core.sink.Sink;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;

/**
 * The changes a running channel takes without a restart (a configuration applied live, an operator's
 * choice): a new sink and delivery settings, new storage settings, other storage directories, its
 * oldest items or its whole backlog dropped. {@link StoreForwardChannel}'s public methods of the same
 * names say what each promises; this class says how they keep those promises.
 *
 * <p><b>Owns</b> no state: each change replaces parts of the channel's {@link ChannelParts}. Every one
 * runs the same way ({@link #paused}): the forwarder is stopped after its write in progress, producers
 * are held at the latch's exclusive lock, the hand-off is moved into the buffer in order (so nothing
 * handed off is overtaken or forgotten), the change runs, and then, whatever it did or threw, a fresh
 * hand-off is installed, the latch is left closed behind any backlog (or handed to the forwarder to
 * open), producers are released and a new forwarder starts over what the parts hold now. A replaced
 * sink takes the same steps without touching the storage (nothing there can fail half-way), and the
 * latch stays as it was.
 *
 * <p><b>Invariants.</b> Producers are never turned away: while a change runs they wait at the latch
 * (typically milliseconds; a reopen takes as long as the buffer's recovery). No buffered or quarantined
 * item is lost by a change except an operator's drop, which is reported to the loss ledger with the
 * operator's name. A change that fails leaves the channel running as before: the storage opened again
 * with the old settings, or as it is.
 *
 * <p><b>What a crash in the middle leaves.</b> Only the buffer's own appends, acknowledgements, closes
 * and opens touch the disk, so a {@code kill -9} at any point leaves what such a kill leaves at any
 * other time: the next start recovers both stores, keeping everything that validates. What the
 * hand-off held and had not yet been appended is lost, the same window as any kill (see {@link
 * HandOff}). A drop of the oldest items interrupted half-way replays those not yet acknowledged
 * (see {@link OldestTrim}); it never loses a newer item. A storage swap interrupted while its
 * directories are moved leaves what {@link StoreForwardChannel.StorageSwap#whileClosed} leaves.
 *
 * <p><b>Threading.</b> Called by the lifecycle or an operator's thread holding the channel's monitor
 * (the channel's methods are synchronized), so no two changes, and no change and a start or stop,
 * overlap; the forwarder is stopped while the parts change, and producers are held off by the latch.
 */
final class LiveReconfiguration<T> {

    private static final Logger log = ChannelParts.log;

    private final ChannelParts<T> parts;

    LiveReconfiguration(ChannelParts<T> parts) {
        this.parts = parts;
    }

    /** See {@link StoreForwardChannel#replaceSink}. */
    Sink<T> replaceSink(Sink<T> newSink, ChannelConfig newConfig) throws InterruptedException {
        Objects.requireNonNull(newSink, "newSink");
        if (!parts.config.sameStorage(newConfig)) {
            throw new IllegalArgumentException("channel '" + parts.connection + "': its storage settings changed;"
                    + " they take effect when the channel is opened again");
        }
        Sink<T> old = parts.sink;
        if (!parts.running) {
            parts.adopt(newSink);
            parts.config = newConfig;
            return old;
        }
        parts.forwarder.stop();
        HandOff<T> previous = parts.handOff;
        OrderingLatch latch = parts.latch;
        latch.exclusive().lock();
        try {
            parts.moveIntoBuffer(previous, "its sink was replaced");
            parts.adopt(newSink);
            parts.config = newConfig;
            parts.handOff = new HandOff<>(newConfig.batchMaxItems());
            if (latch.isClosed()) {
                parts.state = ChannelState.DRAINING;
            }
        } finally {
            latch.exclusive().unlock();
            previous.releaseSettled();
        }
        parts.forwarder.start();
        log.info("Channel {}: sink and delivery settings replaced; delivering from the buffer's head",
                parts.connection);
        return old;
    }

    /** See {@link StoreForwardChannel#reopenStorage}. */
    void reopenStorage(ChannelConfig newConfig) throws Exception {
        ChannelConfig old = parts.config;
        if (!parts.running) {
            parts.adopt(newConfig);
            return;
        }
        paused("its storage was reopened", Resume.CLOSE_BEHIND_BACKLOG, () -> {
            parts.buffer.close();
            parts.quarantineStore.close();
            parts.adopt(newConfig);
            try {
                parts.openStorage();
            } catch (Exception e) {
                parts.adopt(old);
                parts.openStorage();
                throw new ChannelException("channel '" + parts.connection + "' could not reopen its storage with"
                        + " the new settings (" + e.getMessage() + "); it runs with the old ones", e);
            }
            return null;
        });
        log.info("Channel {}: storage reopened with new settings ({} bytes at most, {} policy, {} durability)",
                parts.connection, parts.config.maxBytes(), parts.bufferOptions.overflowPolicy(),
                parts.config.durability());
    }

    /** See {@link StoreForwardChannel#swapStorage}. */
    void swapStorage(StoreForwardChannel.StorageSwap swap) throws Exception {
        requireRunningForChange();
        paused("its storage was swapped", Resume.CLOSE_BEHIND_BACKLOG, () -> {
            swap.check(parts.buffer.stats().records(), parts.quarantine.size());
            parts.buffer.close();
            parts.quarantineStore.close();
            try {
                swap.whileClosed();
            } finally {
                parts.openStorage();
            }
            return null;
        });
        log.info("Channel {}: storage swapped; {} items to deliver, {} quarantined", parts.connection,
                parts.buffer.stats().records(), parts.quarantine.size());
    }

    /** See {@link StoreForwardChannel#dropOldestBeyond} and {@link StoreForwardChannel#discardBacklog}. */
    long dropOldest(long maxBytes, String user, LossReason reason, String detail) throws Exception {
        requireRunningForChange();
        return paused("its oldest items were dropped", Resume.OPEN_WHEN_EMPTY, () -> {
            OldestTrim.Dropped dropped = OldestTrim.to(parts.buffer, maxBytes);
            if (dropped.items() > 0) {
                parts.events.lost(new DataLoss(parts.clock.instant(), "channel", parts.connection, Optional.empty(),
                        reason, dropped.items(), dropped.bytes(), dropped.firstSequence(), dropped.lastSequence(),
                        Optional.of(user), detail));
                log.warn("Channel {}: {} oldest items ({} bytes) dropped by {} ({}): {}", parts.connection,
                        dropped.items(), dropped.bytes(), user, reason.label(), detail);
            }
            return dropped.items();
        });
    }

    private void requireRunningForChange() throws ChannelException {
        if (!parts.running) {
            throw new ChannelException("store-and-forward channel '" + parts.connection + "' is not running", null);
        }
    }

    /** What the latch does after a {@link #paused} change of the storage. */
    private enum Resume {
        /** Closed behind a backlog (the forwarder drains it first, then opens it). */
        CLOSE_BEHIND_BACKLOG,
        /** A closed latch over an empty buffer is handed to the forwarder to open. */
        OPEN_WHEN_EMPTY
    }

    @FunctionalInterface
    private interface PausedWork<R> {
        R run() throws Exception;
    }

    /**
     * Runs {@code work} on the storage with the forwarder stopped, producers held at the latch and the hand-off
     * moved into the buffer ({@code why} is said in its loss texts); then, whatever {@code work} did or threw,
     * a fresh hand-off, the latch as {@code resume} says, producers released and a new forwarder started.
     */
    private <R> R paused(String why, Resume resume, PausedWork<R> work) throws Exception {
        parts.forwarder.stop();
        HandOff<T> previous = parts.handOff;
        OrderingLatch latch = parts.latch;
        latch.exclusive().lock();
        try {
            parts.moveIntoBuffer(previous, why);
            return work.run();
        } finally {
            parts.handOff = new HandOff<>(parts.config.batchMaxItems());
            boolean backlog = parts.buffer.stats().records() > 0;
            if (resume == Resume.CLOSE_BEHIND_BACKLOG && backlog) {
                latch.close();
                parts.state = ChannelState.DRAINING;
            } else if (resume == Resume.OPEN_WHEN_EMPTY && !backlog && latch.isClosed()) {
                parts.state = ChannelState.DRAINING; // the forwarder opens the latch once it sees the buffer empty
            }
            latch.exclusive().unlock();
            previous.releaseSettled();
            parts.forwarder.start();
        }
    }
}
