package io.qubiq.storeforward;

import io.qubiq.buffer.BufferException;
import io.qubiq.buffer.BufferOptions;
import io.qubiq.buffer.Durability;
import io.qubiq.buffer.DurableBuffer;
import io.qubiq.buffer.OverflowPolicy;
import io.qubiq.buffer.SequenceRange;
import io.qubiq.core.disk.DiskReserve;
import io.qubiq.core.event.DataLoss;
import io.qubiq.core.event.EventPublisher;
import io.qubiq.core.event.LossReason;
import io.qubiq.core.sink.ItemCodec;
import io.qubiq.core.sink.Sink;
import io.qubiq.storeforward.quarantine.QuarantineEntry;
import io.qubiq.storeforward.quarantine.QuarantineStore;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.locks.Lock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one channel is made of at this moment, and the few operations every role of the channel needs
 * on it. The roles talk through this object, never to each other: {@link StoreForwardChannel} (the
 * public face, start, stop and status), {@link SubmitPath} (the producers' way in), {@link
 * LiveReconfiguration} (changes while running) and {@link ForwarderSide} (the forwarder's view, and
 * its start and stop).
 *
 * <p><b>Owns.</b> The settings in force and what is derived from them (buffer options, the {@link
 * BufferAppender}, whether producers write synchronously), the sink and its {@link DirectWrite}, the
 * storage (durable buffer, quarantine store and the {@link Quarantine} over it), the {@link
 * OrderingLatch}, the {@link HandOff}, the channel's state and whether it runs, and the parts that live
 * as long as the channel (counters, pressure alarms, loss ledger, wake-ups).
 *
 * <p><b>Invariants.</b> While {@link #running}: the buffer and the quarantine store are open, the latch
 * and the hand-off exist and one forwarder runs over exactly these parts, except while a lifecycle
 * change holds it stopped. Everything in the hand-off is older than everything in the buffer (see
 * {@link HandOff}); so every operation here that moves the hand-off into the buffer does it in order,
 * under the latch's exclusive lock, and closes the latch. The storage, the sink, the hand-off and the
 * settings are replaced only with the forwarder stopped.
 *
 * <p><b>Threading.</b> The fields that change are volatile, except the latch, which is set once per
 * start before {@link #running} is. They are replaced only by the lifecycle thread holding the
 * channel's monitor ({@link StoreForwardChannel}'s start, stop and live changes are synchronized);
 * {@link #state} is also set by producers and the forwarder, {@link #diskReserve} by the disk watcher.
 * The append and spill operations require a latch lock, as each says.
 */
final class ChannelParts<T> {

    /** Every role logs as the channel: operators filter one logger name, whichever class writes the line. */
    static final Logger log = LoggerFactory.getLogger("io.qubiq.storeforward.StoreForwardChannel");

    final String connection;
    final ItemCodec<T> codec;
    final Liveness liveness;
    final EventPublisher events;
    final Clock clock;
    final FastPathBytes<T> fastPathBytes;
    final ChannelCounters counters;
    final PressureAlarms pressure;
    final ChannelLosses losses;
    final Wakeups wakeups = new Wakeups();
    final ForwarderSide<T> forwarder;
    private final StoreForwardChannel.BufferOpener bufferOpener;
    private final StoreForwardChannel.QuarantineOpener quarantineOpener;
    private final Path bufferDir;
    private final OverflowPolicy destinationDefault;

    volatile ChannelConfig config;
    volatile Sink<T> sink;
    volatile DirectWrite<T> direct;
    volatile BufferOptions bufferOptions;
    volatile BufferAppender appender;
    /** Producers write on their own thread (today's contract for the audit journal and durability always). */
    volatile boolean synchronous;
    /** Set by {@link StoreForwardChannel#synchronousSubmit()}: synchronous whatever the durability. */
    volatile boolean synchronousRequested;
    volatile DiskReserve diskReserve = DiskReserve.none();
    volatile DurableBuffer buffer;
    volatile QuarantineStore quarantineStore;
    volatile Quarantine<T> quarantine;
    OrderingLatch latch;
    volatile HandOff<T> handOff;
    volatile ChannelState state = ChannelState.STOPPED;
    volatile boolean running;
    /** Start-up priority for a backlog; null: none asked for ({@link BacklogHold}). */
    volatile BacklogHold backlogHold;

    ChannelParts(String connection, ChannelConfig config, OverflowPolicy destinationDefault, Path bufferDir,
                 StoreForwardChannel.BufferOpener bufferOpener, StoreForwardChannel.QuarantineOpener quarantineOpener,
                 Sink<T> sink, ItemCodec<T> codec, Liveness liveness, EventPublisher events, Clock clock) {
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
        this.forwarder = new ForwarderSide<>(this, new ForwarderSupervision(connection, counters, events, clock));
        this.appender = appender(bufferOptions);
        liveness.onChange(() -> wakeups.signal(Wakeups.Reason.LIVENESS));
    }

    private BufferAppender appender(BufferOptions options) {
        return new BufferAppender(connection, options.overflowPolicy(), counters, pressure, losses, wakeups, clock,
                () -> diskReserve, () -> state = ChannelState.FULL);
    }

    private BufferOptions bufferOptions(ChannelConfig settings) {
        return new BufferOptions(bufferDir, settings.segmentBytes(), settings.maxBytes(),
                settings.highWaterPercent() / 100.0, settings.lowWaterPercent() / 100.0,
                settings.overflowPolicyOr(destinationDefault), settings.durability(), settings.fsyncIntervalMs());
    }

    /** The settings and everything derived from them; the storage is (re)opened by the caller. */
    void adopt(ChannelConfig settings) {
        config = settings;
        bufferOptions = bufferOptions(settings);
        appender = appender(bufferOptions);
        synchronous = synchronousRequested || settings.durability() == Durability.ALWAYS;
    }

    /** The sink, and the direct write over it. */
    void adopt(Sink<T> newSink) {
        sink = newSink;
        direct = new DirectWrite<>(connection, newSink, this::encode, counters, clock);
    }

    /** Opens the buffer and the quarantine with the current options (start, and a reopen with new ones). */
    void openStorage() throws Exception {
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

    List<byte[]> encode(List<T> batch) {
        List<byte[]> items = new ArrayList<>(batch.size());
        for (T item : batch) {
            items.add(codec.encode(item));
        }
        return items;
    }

    static List<byte[]> envelopes(List<byte[]> items, int attempts, long firstFailureMillis) {
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

    OrderingLatch requireRunning() throws ChannelException {
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
        if (state != ChannelState.STOPPED && forwarder.failing()) {
            return ChannelState.FAILED;
        }
        return state;
    }

    /**
     * Under the exclusive latch lock, the latch open: moves the hand-off into the buffer, in order,
     * followed by {@code batch}, and closes the latch. The batch in flight (if any) is copied too.
     */
    void spillLocked(OrderingLatch latch, List<T> batch) throws ChannelFullException, ChannelException {
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
    void moveIntoBuffer(HandOff<T> handed, String why) {
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

    /** On stop, with the exclusive latch lock: what the hand-off still holds goes to the buffer. */
    void keepHandOffOnStop() {
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
}
