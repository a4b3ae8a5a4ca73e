package io.qubiq.storeforward;

import io.qubiq.buffer.BufferException;
import io.qubiq.buffer.BufferOptions;
import io.qubiq.buffer.BufferStats;
import io.qubiq.buffer.DurableBuffer;
import io.qubiq.buffer.OverflowPolicy;
import io.qubiq.buffer.WatermarkListener;
import io.qubiq.core.disk.DiskReserve;
import io.qubiq.core.event.EventPublisher;
import io.qubiq.core.event.LossReason;
import io.qubiq.core.lifecycle.Component;
import io.qubiq.core.lifecycle.SupervisedThread;
import io.qubiq.core.sink.ItemCodec;
import io.qubiq.core.sink.Sink;
import io.qubiq.core.tag.Custody;
import io.qubiq.storeforward.quarantine.QuarantineStore;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;

/**
 * One outbound connection's store-and-forward channel: one durable buffer, one forwarder thread,
 * the ordering latch and a quarantine in front of one sink. Everything that writes to the
 * destination goes through {@link #submit}.
 *
 * <p><b>What a producer sees.</b> Only the forwarder talks to the destination: {@code submit} costs a
 * memory enqueue or a buffer append, never a network call, and returns normally only when the batch
 * was handed off or appended:
 * <ul>
 *   <li><i>Handed off</i> ({@link SubmitOutcome#HANDED_OFF}): nothing is buffered, the destination
 *       is not known to be down, fast path is enabled and the {@link HandOff} has room (one batch of
 *       {@code batch_max_items}): the batch waits in memory for the forwarder, which writes it next
 *       (or, while timeouts make it write fewer items at a time than the batch holds, buffers it
 *       unwritten: see {@link WriteWindow}).
 *       If that write fails for any reason, the forwarder buffers the batch (keeping the attempt it
 *       used up) ahead of what is still handed off, and the latch closes. A {@code kill -9} or power
 *       loss loses what the hand-off holds, the same window as the tag bus's queue in front of it; a
 *       normal stop keeps it in the buffer.
 *   <li><i>Buffered</i> ({@link SubmitOutcome#BUFFERED}): something is buffered already, the
 *       destination is DOWN, or the hand-off is full: the batch is appended behind the backlog (an
 *       append while the latch is open first moves the hand-off into the buffer, in order); the
 *       forwarder delivers it in order.
 *   <li><i>Refused</i>: a buffer with the refuse policy is at its limit: {@link ChannelFullException}
 *       and nothing of the batch is stored. (A drop-oldest buffer never refuses: it discards its
 *       oldest items, counts them and raises the items-dropped alarm.)
 *   <li><i>Storage failure</i>: {@link ChannelException}; the batch must be treated as not accepted.
 *       (So must a batch whose item the codec cannot encode when it has to be buffered: the codec's
 *       unchecked exception propagates. Items are encoded only when they are buffered.)
 * </ul>
 * A channel made {@link #synchronousSubmit() synchronous} (the audit journal) or with durability
 * {@code always} keeps the older contract: on the fast path the producer's thread writes the batch
 * under the exclusive latch lock ({@link SubmitOutcome#DELIVERED}), buffering it if that fails.
 *
 * <p><b>Supervision.</b> The forwarder runs on a {@link SupervisedThread}:
 * anything thrown out of its loop (a sink or codec bug it could not classify, an {@code Error} such as
 * {@code OutOfMemoryError}) is logged with its stack, raises the {@code forwarder_failed} alarm, shows
 * the channel as {@link ChannelState#FAILED} (degraded on {@code /health}) and restarts the forwarder
 * after a backoff; the alarm clears once it delivers normally again ({@link ForwarderSupervision}).
 * The hand-off's forwarder side is {@link HandOffDelivery}; a direct write's failure classes are
 * {@link DirectWrite}'s, for both the hand-off and a synchronous channel's fast path.
 *
 * <p><b>Roles.</b> This class is the channel's public face, its start and stop, and its status. The
 * rest is split by role, each with its own contract, and the roles talk only through the channel's
 * {@link ChannelParts} (what it is made of now): {@link SubmitPath} decides each batch's way in,
 * {@link LiveReconfiguration} takes a new sink, new storage settings, other storage or an
 * operator's drop while the channel runs, and {@link ForwarderSide} starts and stops the forwarder
 * and is all that the {@link Forwarder} and {@link HandOffDelivery} see of the channel. No class of
 * the package but this one and {@link ChannelBuilder} refers to it ({@code ChannelRolesTest}).
 *
 * <p><b>Threading.</b> {@code submit} is safe for any number of producer threads; the sink is only
 * ever called by one thread at a time: the forwarder (or, for a synchronous channel, a producer under
 * the exclusive latch lock while the forwarder waits). {@link #start} and {@link #stop} are called by the
 * lifecycle thread; the live changes ({@link #replaceSink}, {@link #reopenStorage}, {@link #swapStorage},
 * {@link #dropOldestBeyond}, {@link #discardBacklog}) are synchronized with them, so none of these overlap.
 *
 * @param <T> the sink's item type
 */
public final class StoreForwardChannel<T> implements Component {

    private static final Logger log = ChannelParts.log;

    private final ChannelParts<T> parts;
    private final SubmitPath<T> submitPath;
    private final LiveReconfiguration<T> reconfiguration;

    /** Opens the channel's durable buffer with the water-mark listener the channel provides. */
    @FunctionalInterface
    public interface BufferOpener {
        DurableBuffer open(BufferOptions options, WatermarkListener listener) throws BufferException;
    }

    /** Opens the channel's quarantine store. */
    @FunctionalInterface
    public interface QuarantineOpener {
        QuarantineStore open(long maxBytes) throws IOException;
    }

    public StoreForwardChannel(String connection, ChannelConfig config, OverflowPolicy destinationDefault,
                               Path bufferDir, BufferOpener bufferOpener,
                               QuarantineOpener quarantineOpener, Sink<T> sink, ItemCodec<T> codec,
                               Liveness liveness, EventPublisher events, Clock clock) {
        this.parts = new ChannelParts<>(connection, config, destinationDefault, bufferDir, bufferOpener,
                quarantineOpener, sink, codec, liveness, events, clock);
        this.submitPath = new SubmitPath<>(parts);
        this.reconfiguration = new LiveReconfiguration<>(parts);
    }

    @Override
    public String name() {
        return "channel:" + parts.connection;
    }

    public String connection() {
        return parts.connection;
    }

    /** The settings in force now (they change with {@link #replaceSink} and {@link #reopenStorage}). */
    public ChannelConfig settings() {
        return parts.config;
    }

    /**
     * Where the channel asks whether the disk is in its critical reserve (the disk watcher). While it
     * is, the buffer does not grow: appends behave as at {@code max_bytes} per the overflow policy,
     * and what is dropped or refused for it is reported as {@code disk_full} loss.
     */
    public void diskReserve(DiskReserve reserve) {
        parts.diskReserve = Objects.requireNonNull(reserve, "reserve");
    }

    @Override
    public synchronized void start() throws Exception {
        if (parts.running) {
            return;
        }
        parts.openStorage();
        BufferStats stats = parts.buffer.stats();
        parts.latch = new OrderingLatch(stats.records() > 0);
        parts.handOff = new HandOff<>(parts.config.batchMaxItems());
        if (stats.records() > 0) {
            log.info("Channel {}: {} items ({} bytes) buffered from before the restart; delivering them first",
                    parts.connection, stats.records(), stats.usedBytes());
            BacklogHold hold = parts.backlogHold;
            if (hold != null) {
                hold.arm();
            }
        }
        parts.running = true;
        parts.state = stats.records() > 0 ? ChannelState.DRAINING : ChannelState.IDLE;
        parts.forwarder.start();
    }

    /**
     * Asks that a backlog found at {@link #start} wait until {@code startUpSettled} answers true (the
     * gateway's device connections collect), for at most {@code atMost}, so that on a small machine
     * the drain does not take the CPU start-up needs; see {@link BacklogHold}. A channel that starts
     * empty is not held. Call before {@link #start}; {@code startUpSettled} is asked on the
     * forwarder's thread and must neither block nor take a lock that {@link #stop} holds.
     */
    public synchronized StoreForwardChannel<T> holdBacklogUntil(BooleanSupplier startUpSettled, Duration atMost) {
        parts.backlogHold = new BacklogHold(parts.connection, startUpSettled, atMost, System::nanoTime);
        return this;
    }

    /**
     * Stops the forwarder after the write in progress (waiting up to {@code 10 s}, then interrupting
     * it) and closes the buffer and quarantine. Items not yet delivered stay buffered for the next
     * start.
     */
    @Override
    public synchronized void stop() throws Exception {
        if (!parts.running) {
            return;
        }
        parts.running = false;
        parts.forwarder.stop();
        parts.losses.flush();
        parts.latch.exclusive().lock();
        try {
            parts.keepHandOffOnStop();
            parts.state = ChannelState.STOPPED;
            parts.buffer.close();
            parts.quarantineStore.close();
        } finally {
            parts.latch.exclusive().unlock();
        }
    }

    /**
     * Hands a batch to the channel. See the class doc for what each outcome means.
     *
     * <p>Items are encoded for the buffer only when they are buffered: a batch written on the fast
     * path never is (its byte count is estimated, see {@link FastPathBytes}). When the latch is
     * already closed the batch is encoded before any lock is taken.
     *
     * @throws ChannelFullException the refuse policy is in force and the buffer is at its limit
     * @throws ChannelException     the buffer failed, or the channel is not running
     */
    public SubmitOutcome submit(List<T> batch) throws ChannelFullException, ChannelException {
        return submit(batch, Custody.NONE);
    }

    /**
     * As {@link #submit(List)}, and the channel releases {@code custody} (the shares of the MQTT
     * messages the items came from, see {@link Custody}) exactly once, when the batch is safe or
     * accounted for: at once when the call returns {@link SubmitOutcome#BUFFERED} or {@link
     * SubmitOutcome#DELIVERED} or throws (refused, storage failure, not running: the producer reports
     * those as losses); for {@link SubmitOutcome#HANDED_OFF}, once the forwarder's write of it
     * succeeded, or once it was moved into the buffer (a spill when the hand-off is full or the latch
     * closes, after a failed write, on stop), or when it is lost. A {@code kill -9} before then leaves
     * its sources unacknowledged, so a broker redelivers them.
     */
    public SubmitOutcome submit(List<T> batch, Custody custody) throws ChannelFullException, ChannelException {
        return submitPath.submit(batch, custody);
    }

    /**
     * Keeps today's synchronous contract for this channel: {@code submit} returns only when the batch
     * is delivered or buffered, the producer's thread writing on the fast path (the audit journal).
     * Channels with durability always have it anyway. Call before {@link #start}.
     */
    public StoreForwardChannel<T> synchronousSubmit() {
        parts.synchronousRequested = true;
        parts.synchronous = true;
        return this;
    }

    /**
     * Replaces the sink and the delivery settings while the channel runs (a configuration applied
     * live), keeping the buffer, the quarantine and every counter: the forwarder finishes its write in
     * progress and stops, what the hand-off holds is moved into the buffer (in order, ahead of anything
     * appended after it; a batch whose write was cut off is kept too), and a new forwarder over the new
     * sink delivers from the buffer's head. Producers are never turned away meanwhile: they append to
     * the buffer as they would while a backlog drains.
     *
     * <p>Only what the open buffer does not depend on may change ({@link ChannelConfig#sameStorage}):
     * batch sizes, linger, backoff, attempt cap, fast path, and the sink itself. Before {@link #start}
     * the new sink and settings are simply taken.
     *
     * @return the old sink, which the caller closes (nothing here uses it any more)
     * @throws IllegalArgumentException a storage setting differs: that needs the channel reopened
     */
    public synchronized Sink<T> replaceSink(Sink<T> newSink, ChannelConfig newConfig) throws InterruptedException {
        return reconfiguration.replaceSink(newSink, newConfig);
    }

    /**
     * Takes new storage settings while the channel runs (a configuration applied live): {@code
     * max_bytes}, the water marks, the overflow policy, durability, the fsync interval and the
     * quarantine limit, with the delivery settings. The forwarder stops after its write in progress,
     * producers wait at the latch (for as long as the reopen takes, typically milliseconds), the hand-off
     * moves into the buffer, the buffer and the quarantine are closed and opened again with the new
     * options (everything in them kept, recovery as at a start), and a new forwarder delivers from the
     * buffer's head. A backlog larger than a new, smaller {@code max_bytes} is kept: it drains, and new
     * items meet the limit meanwhile as the overflow policy says. A new {@code segment_bytes} applies to the
     * segments written from then on; those written already keep their size (the buffer reads segments of any
     * size, also in recovery).
     *
     * <p>If the buffer or quarantine cannot be opened with the new options, they are opened again with
     * the old ones and the call throws: the channel keeps running as it was.
     *
     * @throws ChannelException the new options were refused; the old ones are in force again
     */
    public synchronized void reopenStorage(ChannelConfig newConfig) throws Exception {
        reconfiguration.reopenStorage(newConfig);
    }

    /**
     * What {@link #swapStorage} does while the channel's storage is closed: typically puts other buffer
     * and quarantine directories where the channel's own were.
     */
    public interface StorageSwap {
        /**
         * Called with the forwarder stopped, producers held at the latch and the hand-off moved into the
         * buffer, before anything is closed: throw to refuse (the channel then runs on as it was).
         *
         * @param bufferedItems the items the channel's buffer holds now
         * @param quarantined   the items its quarantine holds now
         */
        void check(long bufferedItems, int quarantined) throws Exception;

        /** Called with the buffer and the quarantine closed; throw to give up (they are opened again). */
        void whileClosed() throws Exception;
    }

    /**
     * Closes the running channel's buffer and quarantine, lets {@code swap} change their directories, and
     * opens them again (recovery as at a start); a new forwarder then delivers from the new buffer's head,
     * in order, with the latch closed behind a backlog. Producers wait at the latch meanwhile (they are
     * never turned away). If {@code swap} refuses in {@link StorageSwap#check} nothing changes; if it
     * fails in {@link StorageSwap#whileClosed}, or the storage cannot be opened afterwards, the storage is
     * opened again as it is and the call throws.
     *
     * @throws ChannelException the channel is not running, or its storage could not be opened again
     */
    public synchronized void swapStorage(StorageSwap swap) throws Exception {
        reconfiguration.swapStorage(swap);
    }

    /**
     * Drops the oldest buffered items until the buffer holds at most {@code maxBytes} (an operator's
     * choice when a smaller {@code max_bytes} is applied, see {@link OldestTrim}); the loss is reported as
     * {@link LossReason#MAX_BYTES_SHRUNK} by {@code user}. The forwarder is stopped and producers wait at
     * the latch meanwhile.
     *
     * @return the items dropped
     */
    public synchronized long dropOldestBeyond(long maxBytes, String user) throws Exception {
        return reconfiguration.dropOldest(maxBytes, user, LossReason.MAX_BYTES_SHRUNK, "max_bytes lowered to "
                + maxBytes + " below the backlog; the operator chose to drop the oldest items now");
    }

    /**
     * Drops every buffered item (an operator removed the connection and chose to discard its data); the loss
     * is reported as {@link LossReason#CONNECTION_REMOVED} by {@code user} with {@code why}. The quarantine is
     * the caller's ({@link Quarantine#dropAll}).
     *
     * @return the items dropped
     */
    public synchronized long discardBacklog(String user, String why) throws Exception {
        return reconfiguration.dropOldest(0, user, LossReason.CONNECTION_REMOVED, why);
    }

    /** How many times the forwarder's thread was restarted after a failure (for tests). */
    long forwarderRestarts() {
        return parts.forwarder.restarts();
    }

    /** Puts items from the quarantine back on the buffer, durably, behind the current backlog. */
    void requeue(List<byte[]> items) throws ChannelFullException, ChannelException {
        parts.requeue(items);
    }

    /** The operator queue of this channel's quarantined items. */
    public Quarantine<T> quarantine() {
        Quarantine<T> quarantine = parts.quarantine;
        if (quarantine == null) {
            throw new IllegalStateException("channel '" + parts.connection + "' has not been started");
        }
        return quarantine;
    }

    public ChannelStatus status() {
        ChannelConfig config = parts.config;
        DurableBuffer current = parts.buffer;
        BufferStats stats = current == null ? null : current.stats();
        long used = stats == null ? 0 : stats.usedBytes();
        long max = stats == null ? config.maxBytes() : stats.maxBytes();
        var age = stats == null ? Optional.<Duration>empty()
                : stats.oldestAppendTime().map(t -> Duration.between(t, parts.clock.instant()));
        ChannelCounters counters = parts.counters;
        var lastError = counters.lastError();
        QuarantineStore store = parts.quarantineStore;
        return new ChannelStatus(parts.connection, parts.state(), parts.liveness.state(), used,
                stats == null ? 0 : stats.records(), max,
                max == 0 ? 0 : 100.0 * used / max, config.highWaterPercent(), config.lowWaterPercent(), age,
                counters.bytesIn.rate(), counters.bytesOut.rate(),
                counters.itemsIn.get(), counters.itemsDelivered.get(), stats == null ? 0 : stats.droppedRecords(),
                counters.itemsRefused.get(),
                counters.itemsQuarantined.get(), counters.deliveryAttempts.get(), store == null ? 0 : store.size(),
                store == null ? 0 : store.usedBytes(), parts.pressure.pressureActive(), parts.pressure.refusing(),
                lastError.map(ChannelCounters.LastError::message), lastError.map(ChannelCounters.LastError::at),
                parts.bufferOptions.overflowPolicy().name().toLowerCase(Locale.ROOT));
    }
}
