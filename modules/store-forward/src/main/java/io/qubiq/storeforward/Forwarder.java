package io.qubiq.storeforward;

import io.qubiq.buffer.BufferException;
import io.qubiq.buffer.DurableBuffer;
import io.qubiq.core.event.EventPublisher;
import io.qubiq.core.event.QuarantineFullAlarm;
import io.qubiq.core.event.QuarantineUnwritableAlarm;
import io.qubiq.core.health.ConnectionState;
import io.qubiq.core.lifecycle.SupervisedThread;
import io.qubiq.core.sink.EncodedWrites;
import io.qubiq.core.sink.ItemCodec;
import io.qubiq.core.sink.Sink;
import io.qubiq.storeforward.quarantine.QuarantineStore;
import java.time.Clock;
import java.util.EnumSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The single thread that drains one channel's buffer, in order, one batch at a time: peek, write,
 * flush (the sink's write returns only when flushed), then acknowledge (DESIGN.md rule 2).
 *
 * <p>Loop: while the destination is DOWN it waits without attempting (GATED, rule 7). Batches that
 * producers handed off in memory while the latch was open ({@link HandOff}) are written first: they
 * are older than anything buffered. When the buffer is empty it opens the ordering latch and sleeps
 * until data arrives. Otherwise it takes up
 * to {@code batch_max_items} / {@code batch_max_bytes}, waiting up to {@code linger_ms} for a
 * small batch to fill, and hands it to {@link DeliveryAttempt}. A transient failure (or an unknown
 * outcome below the attempt cap) backs off exponentially with jitter and retries the same head
 * batch; the wait ends early when the monitor reports a change. A full quarantine stops delivery
 * (STALLED) and raises an alarm until an operator makes room; a quarantine that cannot be written
 * (a full disk) stops it the same way with its own alarm, and the item is set aside at the first
 * retry (every few seconds) that succeeds.
 *
 * <p>The next batch is read and decoded by a {@link ReadAhead} while the current one is written
 * (only unwrapped, when the sink has {@link EncodedWrites}: it then reads the items' bytes as it
 * writes them);
 * it is used only after the current batch was wholly delivered and acknowledged, and otherwise
 * thrown away, so the order, the acknowledgements and the head-of-line retry are as if each batch
 * were peeked when its turn came.
 *
 * <p>A crash anywhere replays from the last acknowledged record: the sink may see a batch twice,
 * never lose one. So does a failure of the forwarder itself: anything thrown out of its loop ends
 * its thread, and its {@link SupervisedThread} runs it again on a new one after a backoff (see
 * {@link ForwarderSupervision}), from the last acknowledgement, with the delivery attempts counted
 * so far (an item that keeps crashing the sink is quarantined at the attempt cap).
 *
 * <p>Owned by its {@link StoreForwardChannel}, which it sees only through a {@link ForwarderContext}
 * (the dependency points one way, pinned by an ArchUnit rule).
 *
 * <p>Threading: owns the buffer's reader; runs on its supervised thread ({@code forwarder-<connection>},
 * one at a time), and reads ahead on one more ({@code forwarder-<connection>-read-ahead}), which
 * {@link #close} ends once the channel stopped.
 */
final class Forwarder<T> implements Runnable {

    private static final Logger log = LoggerFactory.getLogger(Forwarder.class);
    private static final long IDLE_RECHECK_MS = 1_000;
    /** How often a held backlog asks whether start-up has settled. */
    private static final long HOLD_RECHECK_MS = 50;
    private static final long STALLED_RECHECK_MS = 5_000;

    private final ForwarderContext channel;
    private final HandOffDelivery<T> handOff;
    private final ChannelConfig config;
    private final ReadAhead<T> readAhead;
    private final Liveness liveness;
    private final EventPublisher events;
    private final Clock clock;
    private final Backoff backoff;
    private final DeliveryAttempt<T> delivery;
    private final SlowDestinationAlarm slow;
    private final WriteWindow window;
    private final QuarantineStore quarantine;
    private boolean stallAlarm;
    private volatile SupervisedThread supervisor;
    /** Set when this forwarder gives way to another one while the channel keeps running (a replaced sink). */
    private volatile boolean stopRequested;
    private boolean unwritableAlarm;
    /** The last sequence of the last batch delivered in full; every record up to it is acknowledged. */
    private long deliveredThrough = Long.MIN_VALUE;

    /**
     * @param channel what the forwarder needs of the channel that owns it
     * @param handOff the forwarder's side of the channel's hand-off
     * @param window  how many items to write at a time, shared with {@code handOff}
     */
    Forwarder(ForwarderContext channel, HandOffDelivery<T> handOff, ChannelConfig config, Sink<T> sink,
              ItemCodec<T> codec, DurableBuffer buffer, QuarantineStore quarantine, Liveness liveness,
              EventPublisher events, Clock clock, WriteWindow window) {
        this.channel = channel;
        this.handOff = handOff;
        this.config = config;
        this.readAhead = new ReadAhead<>(channel.connection(), buffer.reader(), codec,
                sink instanceof EncodedWrites, config.batchMaxItems(), config.batchMaxBytes());
        this.liveness = liveness;
        this.events = events;
        this.clock = clock;
        this.quarantine = quarantine;
        this.backoff = new Backoff(config.backoffInitialMs(), config.backoffMaxMs(), new SplittableRandom());
        this.slow = new SlowDestinationAlarm(channel.connection(), channel.counters(), events, clock,
                () -> buffer.stats().usedBytes(), buffer.stats().maxBytes());
        this.window = window;
        this.delivery = new DeliveryAttempt<>(channel.connection(), config, sink, buffer.reader(), quarantine,
                channel.counters(), clock, slow, System::nanoTime, window);
    }

    /** The thread this forwarder runs on, told when delivery works normally (after a restart). */
    void supervisedBy(SupervisedThread thread) {
        this.supervisor = thread;
    }

    /**
     * Delivers until the channel stops. Anything unexpected is thrown out to the {@link
     * SupervisedThread}, which reports it and runs this again on a new thread after a backoff: the
     * forwarder then starts over from the buffer's last acknowledgement.
     */
    @Override
    public void run() {
        deliveredThrough = Long.MIN_VALUE;
        readAhead.discard();
        try {
            while (channel.running() && !stopRequested) {
                step();
                channel.checkStorage();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Ends the loop after the step in progress, although the channel keeps running (its sink is being replaced). */
    void requestStop() {
        stopRequested = true;
    }

    /** Ends the read-ahead thread; after the forwarder's thread has ended for good. */
    void close() throws InterruptedException {
        readAhead.close();
    }

    private void workedNormally() {
        SupervisedThread thread = supervisor;
        if (thread != null) {
            thread.workedNormally();
        }
    }

    private void step() throws InterruptedException {
        if (channel.backlogHeld()) {
            // start-up first (BacklogHold): the backlog waits; nothing is handed off while it exists
            channel.wakeups().await(EnumSet.of(Wakeups.Reason.LIVENESS), HOLD_RECHECK_MS);
            return;
        }
        if (liveness.state() == ConnectionState.DOWN) {
            channel.state(ChannelState.GATED);
            if (channel.handOffWaiting()) {
                channel.bufferHandOff(); // not in memory while the destination may stay down for hours
            }
            channel.wakeups().await(EnumSet.of(Wakeups.Reason.LIVENESS), IDLE_RECHECK_MS);
            return;
        }
        channel.wakeups().clear(Wakeups.Reason.DATA);
        if (channel.handOffWaiting()) {
            // handed-off items are older than anything in the buffer: they go first
            HandOffDelivery.Result result = handOff.deliver();
            slow.update(window); // a handed-off write moves the shared window too: raise or clear as for the buffer's
            if (result.acknowledged() != Long.MIN_VALUE) {
                deliveredThrough = result.acknowledged();
            }
            if (result.delivered()) {
                workedNormally();
            }
            return;
        }
        PreparedBatch<T> batch;
        try {
            batch = readAhead.fetch(deliveredThrough);
        } catch (BufferException e) {
            failed("reading the buffer: " + e.getMessage(), e);
            return;
        }
        if (batch.isEmpty()) {
            if (channel.openLatchIfDrained()) {
                workedNormally(); // nothing left that failed: the restarted forwarder is at rest
                if (channel.state() != ChannelState.FAST_PATH) {
                    channel.state(ChannelState.IDLE);
                }
                channel.wakeups().await(EnumSet.of(Wakeups.Reason.DATA), IDLE_RECHECK_MS);
            }
            return;
        }
        if (shouldLinger(batch)) {
            long waited = config.lingerMs() - (clock.millis() - batch.firstAppendTimeMillis());
            channel.wakeups().await(Set.of(), Math.max(1, waited));
            return;
        }
        channel.state(ChannelState.DRAINING);
        DeliveryAttempt.Outcome outcome = delivery.deliver(batch);
        switch (outcome.kind()) {
            case DONE -> {
                deliveredThrough = batch.lastSequence();
                backoff.reset();
                clearStall();
                workedNormally();
            }
            case RETRY -> backOff(outcome.detail());
            case STALLED -> stall(outcome.detail());
            case QUARANTINE_UNWRITABLE -> unwritable(outcome.detail(), outcome.diskFull());
        }
    }

    private boolean shouldLinger(PreparedBatch<T> batch) {
        if (config.lingerMs() <= 0 || batch.size() >= config.batchMaxItems()) {
            return false;
        }
        long age = clock.millis() - batch.firstAppendTimeMillis();
        return age >= 0 && age < config.lingerMs();
    }

    private void backOff(String why) throws InterruptedException {
        long delay = backoff.nextDelayMs();
        channel.state(ChannelState.BACKING_OFF);
        if (backoff.consecutiveFailures() == 1) {
            log.warn("Delivery to {} failed ({}); retrying the same batch with backoff until it succeeds",
                    channel.connection(), why);
        }
        channel.wakeups().await(EnumSet.of(Wakeups.Reason.LIVENESS), delay);
    }

    private void stall(String why) throws InterruptedException {
        channel.state(ChannelState.STALLED);
        if (!stallAlarm) {
            stallAlarm = true;
            events.alarm(new QuarantineFullAlarm(channel.connection(), true, clock.instant(), quarantine.usedBytes(),
                    quarantine.maxBytes()));
            log.error("Delivery to {} is stopped: {}", channel.connection(), why);
        }
        channel.wakeups().await(EnumSet.of(Wakeups.Reason.OPERATOR), STALLED_RECHECK_MS);
    }

    /** The quarantine's write failed (not its limit): the same stop, its own alarm, retried alike. */
    private void unwritable(String why, boolean diskFull) throws InterruptedException {
        channel.state(ChannelState.STALLED);
        if (!unwritableAlarm) {
            unwritableAlarm = true;
            events.alarm(new QuarantineUnwritableAlarm(channel.connection(), true, clock.instant(),
                    diskFull, why));
            log.error("Delivery to {} is stopped: {}; the item stays in the buffer and is set aside as soon as the"
                    + " write succeeds", channel.connection(), why);
        }
        channel.wakeups().await(EnumSet.of(Wakeups.Reason.OPERATOR), STALLED_RECHECK_MS);
    }

    private void clearStall() {
        if (unwritableAlarm) {
            unwritableAlarm = false;
            events.alarm(new QuarantineUnwritableAlarm(channel.connection(), false, clock.instant(), false, ""));
            log.info("Delivery to {} resumed: the quarantine could be written again", channel.connection());
        }
        if (stallAlarm) {
            stallAlarm = false;
            events.alarm(new QuarantineFullAlarm(channel.connection(), false, clock.instant(), quarantine.usedBytes(),
                    quarantine.maxBytes()));
            log.info("Delivery to {} resumed", channel.connection());
        }
    }

    private void failed(String what, Exception e) throws InterruptedException {
        channel.counters().error(what, clock.instant());
        log.error("Forwarder of {}: {}", channel.connection(), what);
        backOff(what);
    }
}
