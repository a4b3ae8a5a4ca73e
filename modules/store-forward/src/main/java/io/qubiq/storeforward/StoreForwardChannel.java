package io.qubiq.storeforward;

import io.qubiq.buffer.BufferException;
import io.qubiq.buffer.BufferOptions;
import io.qubiq.buffer.BufferStats;
import io.qubiq.buffer.Durability;
import io.qubiq.buffer.DurableBuffer;
import io.qubiq.buffer.OverflowPolicy;
import io.qubiq.buffer.SequenceRange;
import io.qubiq.buffer.WatermarkListener;
import io.qubiq.core.disk.DiskReserve;
import io.qubiq.core.event.DataLoss;
import io.qubiq.core.event.EventPublisher;
import io.qubiq.core.event.LossReason;
import io.qubiq.core.lifecycle.Component;
import io.qubiq.core.lifecycle.SupervisedThread;
import io.qubiq.core.sink.ItemCodec;
import io.qubiq.core.sink.Sink;
import io.qubiq.core.tag.Custody;
import io.qubiq.storeforward.quarantine.QuarantineEntry;
import io.qubiq.storeforward.quarantine.QuarantineStore;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.locks.Lock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
 * <p><b>Threading.</b> {@code submit} is safe for any number of producer threads; the sink is only
 * ever called by one thread at a time: the forwarder (or, for a synchronous channel, a producer under
 * the exclusive latch lock while the forwarder waits). {@link #start} and {@link #stop} are called by the lifecycle thread.
 *
 * @param <T> the sink's item type
 */
public final class StoreForwardChannel<T> implements Component {

    private static final Logger log = LoggerFactory.getLogger(StoreForwardChannel.class);

    private final String connection;
    private volatile ChannelConfig config;
    private volatile Sink<T> sink;
    private final ItemCodec<T> codec;
    private final Liveness liveness;
    private final EventPublisher events;
    private final Clock clock;
    private final BufferOpener bufferOpener;
    private final QuarantineOpener quarantineOpener;
    private final FastPathBytes<T> fastPathBytes;

    final ChannelCounters counters;
    final PressureAlarms pressure;
    final ChannelLosses losses;
    final Wakeups wakeups = new Wakeups();
    private OrderingLatch latch;
    private volatile HandOff<T> handOff;
    /** Producers write on their own thread (today's contract for the audit journal and durability always). */
    private volatile boolean synchronous;
    /** Set by {@link #synchronousSubmit()}: synchronous whatever the durability. */
    private volatile boolean synchronousRequested;
    private volatile DurableBuffer buffer;
    private volatile QuarantineStore quarantineStore;
    private volatile Quarantine<T> quarantine;
    private volatile DirectWrite<T> direct;
    private final ForwarderSupervision supervision;
    private Forwarder<T> forwarder;
    private volatile SupervisedThread forwarderThread;
    private volatile ChannelState state = ChannelState.STOPPED;
    private volatile boolean running;
    private volatile DiskReserve diskReserve = DiskReserve.none();
    private volatile BufferAppender appender;

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

    private volatile BufferOptions bufferOptions;
    private final java.nio.file.Path bufferDir;
    private final OverflowPolicy destinationDefault;

    private BufferAppender appender(BufferOptions options) {
        return new BufferAppender(connection, options.overflowPolicy(), counters, pressure, losses, wakeups, clock,
                () -> diskReserve, () -> state = ChannelState.FULL);
    }

    private BufferOptions bufferOptions(ChannelConfig settings) {
        return new BufferOptions(bufferDir, settings.segmentBytes(), settings.maxBytes(),
                settings.highWaterPercent() / 100.0, settings.lowWaterPercent() / 100.0,
                settings.overflowPolicyOr(destinationDefault), settings.durability(), settings.fsyncIntervalMs());
    }

    public StoreForwardChannel(String connection, ChannelConfig config, OverflowPolicy destinationDefault,
                               Path bufferDir, BufferOpener bufferOpener,
                               QuarantineOpener quarantineOpener, Sink<T> sink, ItemCodec<T> codec,
                               Liveness liveness, EventPublisher events, Clock clock) {
        this.connection = Objects.requireNonNull(connection, "connection");
        this.config = Objects.requireNonNull(config, "config");
        this.sink = Objects.requireNonNull(sink, "sink");
        this.codec = Objects.requireNonNull(codec, "codec");
        this.liveness = Objects.requireNonNull(liveness, "liveness");
        this.events = Objects.requireNonNull(events, "events");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.bufferOpener = Objects.requireNonNull(bufferOpener, "bufferOpener");
        this.quarantineOpener = Objects.requireNonNull(quarantineOpener, "quarantineOpener");
        this.fastPathBytes = new FastPathBytes<>(codec);
        this.bufferDir = bufferDir;
        this.destinationDefault = destinationDefault;
        this.bufferOptions = bufferOptions(config);
        this.counters = new ChannelCounters(System::nanoTime);
        this.losses = new ChannelLosses(connection, events, clock);
        this.pressure = new PressureAlarms(connection, counters, events, clock, losses);
        this.synchronous = config.durability() == Durability.ALWAYS;
        this.direct = new DirectWrite<>(connection, sink, this::encode, counters, clock);
        this.supervision = new ForwarderSupervision(connection, counters, events, clock);
        this.appender = appender(bufferOptions);
        liveness.onChange(() -> wakeups.signal(Wakeups.Reason.LIVENESS));
    }

    @Override
    public String name() {
        return "channel:" + connection;
    }

    public String connection() {
        return connection;
    }

    /** The settings in force now (they change with {@link #replaceSink} and {@link #reopenStorage}). */
    public ChannelConfig settings() {
        return config;
    }

    /**
     * Where the channel asks whether the disk is in its critical reserve (the disk watcher). While it
     * is, the buffer does not grow: appends behave as at {@code max_bytes} per the overflow policy,
     * and what is dropped or refused for it is reported as {@code disk_full} loss.
     */
    public void diskReserve(DiskReserve reserve) {
        this.diskReserve = Objects.requireNonNull(reserve, "reserve");
    }

    @Override
    public synchronized void start() throws Exception {
        if (running) {
            return;
        }
        openStorage();
        BufferStats stats = buffer.stats();
        latch = new OrderingLatch(stats.records() > 0);
        handOff = new HandOff<>(config.batchMaxItems());
        if (stats.records() > 0) {
            log.info("Channel {}: {} items ({} bytes) buffered from before the restart; delivering them first",
                    connection, stats.records(), stats.usedBytes());
        }
        running = true;
        state = stats.records() > 0 ? ChannelState.DRAINING : ChannelState.IDLE;
        startForwarder();
    }

    /** Opens the buffer and the quarantine with the current options (start, and a reopen with new ones). */
    private void openStorage() throws Exception {
        buffer = bufferOpener.open(bufferOptions, pressure);
        losses.recovered(buffer.recoveryReport());
        try {
            quarantineStore = quarantineOpener.open(config.quarantineMaxBytes());
            // quarantine ids are buffer sequences: a buffer that lost its files must not issue them again
            long highestQuarantined = quarantineStore.list(0, 1, Optional.empty()).entries().stream()
                    .mapToLong(QuarantineEntry::id).max().orElse(0);
            buffer.reserveSequencesThrough(highestQuarantined);
        } catch (Exception e) {
            buffer.close();
            throw e;
        }
        if (quarantineStore.setAside() > 0) {
            log.error("Channel {}: {} damaged quarantine entries were moved to the quarantine's corrupt/ folder",
                    connection, quarantineStore.setAside());
            events.lost(DataLoss.of(clock.instant(), "channel", connection,
                    LossReason.QUARANTINE_DAMAGED, quarantineStore.setAside(), 0,
                    quarantineStore.setAside() + " quarantine entries failed their checksum on open and were moved"
                            + " to the quarantine's corrupt/ folder"));
        }
        quarantine = new Quarantine<>(connection, quarantineStore, codec, this::requeue, wakeups, events, clock);
    }

    /** A forwarder over the current sink, settings, hand-off and buffer, on a supervised thread. */
    private void startForwarder() {
        WriteWindow window = new WriteWindow(config.batchMaxItems()); // one for both ways the forwarder writes
        HandOffDelivery<T> handOffDelivery = new HandOffDelivery<>(this, handOff, latch, buffer.reader(), direct,
                window, System::nanoTime, events, clock);
        forwarder = new Forwarder<>(new ForwarderSide(), handOffDelivery, config, sink, codec, buffer, quarantineStore,
                liveness, events, clock, window);
        // supervised: whatever kills the forwarder's thread, a new one takes over after a backoff
        forwarderThread = new SupervisedThread("forwarder-" + connection, forwarder,
                config.backoffInitialMs(), config.backoffMaxMs(), supervision);
        forwarder.supervisedBy(forwarderThread);
        forwarderThread.start();
    }

    /** Ends the forwarder after its write in progress (waiting up to 10 s, then interrupting it). */
    private void stopForwarder() throws InterruptedException {
        forwarder.requestStop();
        forwarderThread.requestStop();
        wakeups.signal(Wakeups.Reason.STOP);
        if (!forwarderThread.join(Duration.ofSeconds(10).toMillis())) {
            forwarderThread.interrupt();
            forwarderThread.join(Duration.ofSeconds(5).toMillis());
        }
        forwarder.close();
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
        Objects.requireNonNull(newSink, "newSink");
        if (!config.sameStorage(newConfig)) {
            throw new IllegalArgumentException("channel '" + connection + "': its storage settings changed;"
                    + " they take effect when the channel is opened again");
        }
        Sink<T> old = sink;
        if (!running) {
            sink = newSink;
            config = newConfig;
            direct = new DirectWrite<>(connection, newSink, this::encode, counters, clock);
            return old;
        }
        stopForwarder();
        HandOff<T> previous = handOff;
        latch.exclusive().lock();
        try {
            moveIntoBuffer(previous, "its sink was replaced");
            sink = newSink;
            config = newConfig;
            direct = new DirectWrite<>(connection, newSink, this::encode, counters, clock);
            handOff = new HandOff<>(newConfig.batchMaxItems());
            if (latch.isClosed()) {
                state = ChannelState.DRAINING;
            }
        } finally {
            latch.exclusive().unlock();
            previous.releaseSettled();
        }
        startForwarder();
        log.info("Channel {}: sink and delivery settings replaced; delivering from the buffer's head", connection);
        return old;
    }

    /**
     * Stops the forwarder after the write in progress (waiting up to {@code 10 s}, then interrupting
     * it) and closes the buffer and quarantine. Items not yet delivered stay buffered for the next
     * start.
     */
    @Override
    public synchronized void stop() throws Exception {
        if (!running) {
            return;
        }
        running = false;
        stopForwarder();
        losses.flush();
        latch.exclusive().lock();
        try {
            keepHandOffOnStop();
            state = ChannelState.STOPPED;
            buffer.close();
            quarantineStore.close();
        } finally {
            latch.exclusive().unlock();
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
        boolean handedOff = false;
        try {
            SubmitOutcome outcome = submitHolding(batch, custody);
            handedOff = outcome == SubmitOutcome.HANDED_OFF;
            return outcome;
        } finally {
            HandOff<T> current = handOff;
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
        OrderingLatch latch = requireRunning();
        if (synchronous) {
            return submitSynchronously(latch, batch);
        }
        List<byte[]> items = latch.isClosed() || !fastPathAllowed() ? encode(batch) : null;
        latch.shared().lock();
        try {
            if (latch.isClosed()) {
                appendLocked(latch, envelopes(items != null ? items : encode(batch), 0, 0), 0);
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
                appendLocked(latch, envelopes(items != null ? items : encode(batch), 0, 0), 0);
                return SubmitOutcome.BUFFERED;
            }
            if (fastPathAllowed() && offer(batch, custody)) {
                return SubmitOutcome.HANDED_OFF;
            }
            spillLocked(latch, batch);
            return SubmitOutcome.BUFFERED;
        } finally {
            latch.exclusive().unlock();
        }
    }

    /** The contract before the hand-off: the producer's thread writes on the fast path. */
    private SubmitOutcome submitSynchronously(OrderingLatch latch, List<T> batch)
            throws ChannelFullException, ChannelException {
        List<byte[]> items = latch.isClosed() || !fastPathAllowed() ? encode(batch) : null;
        latch.shared().lock();
        try {
            if (latch.isClosed() || !fastPathAllowed()) {
                appendLocked(latch, envelopes(items != null ? items : encode(batch), 0, 0), 0);
                return SubmitOutcome.BUFFERED;
            }
        } finally {
            latch.shared().unlock();
        }
        latch.exclusive().lock();
        try {
            if (latch.isClosed() || !fastPathAllowed()) {
                appendLocked(latch, envelopes(items != null ? items : encode(batch), 0, 0), 0);
                return SubmitOutcome.BUFFERED;
            }
            return writeFastPath(latch, batch);
        } finally {
            latch.exclusive().unlock();
        }
    }

    /**
     * Keeps today's synchronous contract for this channel: {@code submit} returns only when the batch
     * is delivered or buffered, the producer's thread writing on the fast path (the audit journal).
     * Channels with durability always have it anyway. Call before {@link #start}.
     */
    public StoreForwardChannel<T> synchronousSubmit() {
        this.synchronousRequested = true;
        this.synchronous = true;
        return this;
    }

    /** Hands the batch off when there is room: counted in (its size estimated) and the forwarder woken. */
    private boolean offer(List<T> batch, Custody custody) {
        long bytes = fastPathBytes.estimate(batch);
        if (!handOff.offer(batch, bytes, custody)) {
            return false;
        }
        counters.itemsIn.addAndGet(batch.size());
        counters.bytesIn.add(bytes);
        wakeups.signal(Wakeups.Reason.DATA);
        return true;
    }

    /**
     * Under the exclusive latch lock, the latch open: moves the hand-off into the buffer, in order,
     * followed by {@code batch}, and closes the latch. The batch in flight (if any) is copied too.
     */
    private void spillLocked(OrderingLatch latch, List<T> batch) throws ChannelFullException, ChannelException {
        handOff.spill(batch, (items, handedOff) -> appendLocked(latch, envelopes(encode(items), 0, 0), handedOff));
        if (latch.isClosed() && state == ChannelState.FAST_PATH) {
            state = ChannelState.DRAINING;
        }
    }

    /**
     * Under the exclusive latch lock, the forwarder stopped: moves what {@code handed} holds into the
     * buffer, in order (a batch whose write was cut off is kept too) and closes the latch; what cannot
     * be buffered is reported lost. The caller releases the custody afterwards.
     */
    private void moveIntoBuffer(HandOff<T> handed, String why) {
        if (handed.isEmpty()) {
            return;
        }
        try {
            handed.spill(List.of(), (items, handedOff) -> appendLocked(latch, envelopes(encode(items), 0, 0), handedOff));
        } catch (ChannelFullException | ChannelException | RuntimeException e) {
            handed.releaseAll();
            log.error("Channel {}: {} handed-off items could not be buffered while {} and are lost: {}", connection,
                    handed.items(), why, e.toString());
            events.lost(DataLoss.of(clock.instant(), "channel", connection, LossReason.REFUSED, handed.items(), 0,
                    "handed-off items could not be buffered while " + why + ": " + e.getMessage()));
        }
        handed.complete();
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
        ChannelConfig old = config;
        if (!running) {
            adopt(newConfig);
            return;
        }
        paused("its storage was reopened", Resume.CLOSE_BEHIND_BACKLOG, () -> {
            buffer.close();
            quarantineStore.close();
            adopt(newConfig);
            try {
                openStorage();
            } catch (Exception e) {
                adopt(old);
                openStorage();
                throw new ChannelException("channel '" + connection + "' could not reopen its storage with the new"
                        + " settings (" + e.getMessage() + "); it runs with the old ones", e);
            }
            return null;
        });
        log.info("Channel {}: storage reopened with new settings ({} bytes at most, {} policy, {} durability)",
                connection, config.maxBytes(), bufferOptions.overflowPolicy(), config.durability());
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
        requireRunningForChange();
        paused("its storage was swapped", Resume.CLOSE_BEHIND_BACKLOG, () -> {
            swap.check(buffer.stats().records(), quarantine.size());
            buffer.close();
            quarantineStore.close();
            try {
                swap.whileClosed();
            } finally {
                openStorage();
            }
            return null;
        });
        log.info("Channel {}: storage swapped; {} items to deliver, {} quarantined", connection,
                buffer.stats().records(), quarantine.size());
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
        return dropOldest(maxBytes, user, LossReason.MAX_BYTES_SHRUNK, "max_bytes lowered to " + maxBytes
                + " below the backlog; the operator chose to drop the oldest items now");
    }

    /**
     * Drops every buffered item (an operator removed the connection and chose to discard its data); the loss
     * is reported as {@link LossReason#CONNECTION_REMOVED} by {@code user} with {@code why}. The quarantine is
     * the caller's ({@link Quarantine#dropAll}).
     *
     * @return the items dropped
     */
    public synchronized long discardBacklog(String user, String why) throws Exception {
        return dropOldest(0, user, LossReason.CONNECTION_REMOVED, why);
    }

    private long dropOldest(long maxBytes, String user, LossReason reason, String detail) throws Exception {
        requireRunningForChange();
        return paused("its oldest items were dropped", Resume.OPEN_WHEN_EMPTY, () -> {
            OldestTrim.Dropped dropped = OldestTrim.to(buffer, maxBytes);
            if (dropped.items() > 0) {
                events.lost(new DataLoss(clock.instant(), "channel", connection, Optional.empty(), reason,
                        dropped.items(), dropped.bytes(), dropped.firstSequence(), dropped.lastSequence(),
                        Optional.of(user), detail));
                log.warn("Channel {}: {} oldest items ({} bytes) dropped by {} ({}): {}", connection, dropped.items(),
                        dropped.bytes(), user, reason.label(), detail);
            }
            return dropped.items();
        });
    }

    private void requireRunningForChange() throws ChannelException {
        if (!running) {
            throw new ChannelException("store-and-forward channel '" + connection + "' is not running", null);
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
        stopForwarder();
        HandOff<T> previous = handOff;
        latch.exclusive().lock();
        try {
            moveIntoBuffer(previous, why);
            return work.run();
        } finally {
            handOff = new HandOff<>(config.batchMaxItems());
            boolean backlog = buffer.stats().records() > 0;
            if (resume == Resume.CLOSE_BEHIND_BACKLOG && backlog) {
                latch.close();
                state = ChannelState.DRAINING;
            } else if (resume == Resume.OPEN_WHEN_EMPTY && !backlog && latch.isClosed()) {
                state = ChannelState.DRAINING; // the forwarder opens the latch once it sees the buffer empty
            }
            latch.exclusive().unlock();
            previous.releaseSettled();
            startForwarder();
        }
    }

    /** The settings and everything derived from them; the storage is (re)opened by the caller. */
    private void adopt(ChannelConfig settings) {
        config = settings;
        bufferOptions = bufferOptions(settings);
        appender = appender(bufferOptions);
        synchronous = synchronousRequested || settings.durability() == Durability.ALWAYS;
    }

    /** How many times the forwarder's thread was restarted after a failure (for tests). */
    long forwarderRestarts() {
        SupervisedThread supervisor = forwarderThread;
        return supervisor == null ? 0 : supervisor.restarts();
    }

    /** On stop, with the exclusive latch lock: what the hand-off still holds goes to the buffer. */
    private void keepHandOffOnStop() {
        HandOff<T> current = handOff;
        if (current == null || current.isEmpty()) {
            return;
        }
        try {
            // a batch still in flight (the forwarder was interrupted) has an unknown outcome: kept too
            current.spill(List.of(), (items, handedOff) -> {
                try {
                    return buffer.appendBatch(envelopes(encode(items), 0, 0));
                } catch (BufferException e) {
                    throw new ChannelException("store-and-forward buffer of '" + connection
                            + "' could not keep the handed-off items: " + e.getMessage(), e);
                }
            });
            current.complete();
            current.releaseSettled();
        } catch (ChannelFullException | ChannelException | RuntimeException e) {
            current.releaseAll(); // reported lost below: their sources are acknowledged, the loss is in the ledger
            int lost = current.items();
            log.error("Channel {}: {} handed-off items could not be buffered on stop and are lost: {}", connection,
                    lost, e.toString());
            if (lost > 0) {
                events.lost(DataLoss.of(clock.instant(), "channel", connection,
                        LossReason.REFUSED, lost, 0,
                        "handed-off items could not be buffered when the channel stopped: " + e.getMessage()));
            }
        }
    }

    List<byte[]> encode(List<T> batch) {
        List<byte[]> items = new ArrayList<>(batch.size());
        for (T item : batch) {
            items.add(codec.encode(item));
        }
        return items;
    }

    /**
     * Under the exclusive latch lock: writes the batch directly; on any failure buffers what must be
     * kept (see {@link DirectWrite}), then rethrows an {@link Error} the sink threw.
     */
    private SubmitOutcome writeFastPath(OrderingLatch latch, List<T> batch)
            throws ChannelFullException, ChannelException {
        Optional<DirectWrite.Failure> failed = direct.write(batch);
        if (failed.isPresent()) {
            DirectWrite.Failure failure = failed.get();
            // items written anyway came in and went out here; the rest are counted in when appended
            counters.itemsIn.addAndGet(failure.written());
            counters.bytesIn.add(failure.writtenBytes());
            counters.itemsDelivered.addAndGet(failure.written());
            counters.bytesOut.add(failure.writtenBytes());
            appendLocked(latch, failure.toBuffer(), 0);
            failure.rethrowError();
            return SubmitOutcome.BUFFERED;
        }
        long bytes = fastPathBytes.estimate(batch);
        counters.itemsIn.addAndGet(batch.size());
        counters.bytesIn.add(bytes);
        counters.itemsDelivered.addAndGet(batch.size());
        counters.bytesOut.add(bytes);
        state = ChannelState.FAST_PATH;
        return SubmitOutcome.DELIVERED;
    }

    private static List<byte[]> envelopes(List<byte[]> items, int attempts, long firstFailureMillis) {
        List<byte[]> payloads = new ArrayList<>(items.size());
        for (byte[] item : items) {
            payloads.add(ItemEnvelope.wrap(attempts, firstFailureMillis, item));
        }
        return payloads;
    }

    /**
     * Appends under a latch lock the caller holds, then closes the latch and wakes the forwarder. The
     * first {@code alreadyIn} payloads were counted in when they were handed off. See {@link BufferAppender}.
     */
    SequenceRange appendLocked(OrderingLatch latch, List<byte[]> payloads, int alreadyIn)
            throws ChannelFullException, ChannelException {
        return appender.append(buffer, latch, payloads, alreadyIn);
    }

    /** Puts items from the quarantine back on the buffer, durably, behind the current backlog. */
    void requeue(List<byte[]> items) throws ChannelFullException, ChannelException {
        OrderingLatch latch = requireRunning();
        Lock lock = latch.exclusive(); // rare (an operator's retry): no offer races it
        lock.lock();
        try {
            if (!latch.isClosed()) {
                spillLocked(latch, List.of()); // what was handed off is older: it goes first
            }
            appendLocked(latch, envelopes(items, 0, 0), 0);
            buffer.sync();
        } catch (BufferException e) {
            throw new ChannelException("could not sync the buffer of '" + connection + "': " + e.getMessage(), e);
        } finally {
            lock.unlock();
            handOff.releaseSettled();
        }
    }

    private boolean fastPathAllowed() {
        return running && config.fastPath() && liveness.state().allowsAttempts() && state != ChannelState.STALLED;
    }

    private OrderingLatch requireRunning() throws ChannelException {
        OrderingLatch current = latch;
        if (!running || current == null) {
            throw new ChannelException("store-and-forward channel '" + connection + "' is not running", null);
        }
        return current;
    }

    void state(ChannelState newState) {
        if (state != ChannelState.STOPPED || newState == ChannelState.STOPPED) {
            state = newState;
        }
    }

    /** The state the console shows: {@link ChannelState#FAILED} from a forwarder failure until it delivers again. */
    ChannelState state() {
        SupervisedThread supervisor = forwarderThread;
        if (state != ChannelState.STOPPED && supervisor != null && supervisor.failing()) {
            return ChannelState.FAILED;
        }
        return state;
    }

    /** The operator queue of this channel's quarantined items. */
    public Quarantine<T> quarantine() {
        if (quarantine == null) {
            throw new IllegalStateException("channel '" + connection + "' has not been started");
        }
        return quarantine;
    }

    public ChannelStatus status() {
        DurableBuffer current = buffer;
        BufferStats stats = current == null ? null : current.stats();
        long used = stats == null ? 0 : stats.usedBytes();
        long max = stats == null ? config.maxBytes() : stats.maxBytes();
        var age = stats == null ? Optional.<Duration>empty()
                : stats.oldestAppendTime().map(t -> Duration.between(t, clock.instant()));
        var lastError = counters.lastError();
        QuarantineStore store = quarantineStore;
        return new ChannelStatus(connection, state(), liveness.state(), used, stats == null ? 0 : stats.records(), max,
                max == 0 ? 0 : 100.0 * used / max, config.highWaterPercent(), config.lowWaterPercent(), age,
                counters.bytesIn.rate(), counters.bytesOut.rate(),
                counters.itemsIn.get(), counters.itemsDelivered.get(), stats == null ? 0 : stats.droppedRecords(),
                counters.itemsRefused.get(),
                counters.itemsQuarantined.get(), counters.deliveryAttempts.get(), store == null ? 0 : store.size(),
                store == null ? 0 : store.usedBytes(), pressure.pressureActive(), pressure.refusing(),
                lastError.map(ChannelCounters.LastError::message), lastError.map(ChannelCounters.LastError::at),
                bufferOptions.overflowPolicy().name().toLowerCase(java.util.Locale.ROOT));
    }

    /** The channel as its forwarder sees it: what the forwarder needs, and no more. */
    private final class ForwarderSide implements ForwarderContext {

        @Override
        public String connection() {
            return connection;
        }

        @Override
        public ChannelCounters counters() {
            return counters;
        }

        @Override
        public Wakeups wakeups() {
            return wakeups;
        }

        @Override
        public boolean running() {
            return running;
        }

        @Override
        public void checkStorage() {
            losses.flush();
            DurableBuffer current = buffer;
            if (current != null) {
                losses.checkSyncFailures(() -> current.stats().syncFailures());
            }
        }

        @Override
        public ChannelState state() {
            return StoreForwardChannel.this.state();
        }

        @Override
        public void state(ChannelState newState) {
            StoreForwardChannel.this.state(newState);
        }

        @Override
        public boolean handOffWaiting() {
            HandOff<T> current = handOff;
            return current != null && current.hasQueued();
        }

        @Override
        public void bufferHandOff() {
            HandOff<T> current = handOff;
            latch.exclusive().lock();
            try {
                if (!latch.isClosed() || current.hasQueued()) {
                    moveIntoBuffer(current, "the destination is down");
                }
            } finally {
                latch.exclusive().unlock();
                current.releaseSettled();
            }
        }

        @Override
        public boolean openLatchIfDrained() {
            return latch.openIfEmpty(() -> buffer.stats().records() == 0);
        }
    }
}
