package io.qubiq.storeforward;

import io.qubiq.buffer.DurableBuffer;
import io.qubiq.buffer.SequenceRange;
import io.qubiq.core.lifecycle.SupervisedThread;
import java.time.Duration;
import java.util.List;

/**
 * The channel's side of its forwarder: starts a {@link Forwarder} (with its {@link HandOffDelivery})
 * over the channel's current parts on a {@link SupervisedThread}, stops it, and is the context both
 * see ({@link HandOffContext}, a {@link ForwarderContext}): what they need of the channel, and no
 * more, so that neither depends on the channel.
 *
 * <p><b>Owns.</b> The forwarder now running (at most one per channel) and its supervised thread,
 * which survives the forwarder's failures (restarts counted, {@link ForwarderSupervision} reports them).
 * A new forwarder is started after every stop that leaves the channel running (a live change), over
 * whatever the parts hold then: sink, settings, buffer, quarantine, latch and hand-off.
 *
 * <p><b>Threading.</b> {@link #start} and {@link #stop} are called by the lifecycle thread holding the
 * channel's monitor; {@link #failing} and {@link #restarts} by anyone. The context methods are called
 * on the forwarder's thread; each is safe there while producers submit ({@link #bufferHandOff} takes
 * the latch's exclusive lock).
 */
final class ForwarderSide<T> implements HandOffContext<T> {

    private final ChannelParts<T> parts;
    private final ForwarderSupervision supervision;
    private Forwarder<T> forwarder;
    private volatile SupervisedThread thread;

    ForwarderSide(ChannelParts<T> parts, ForwarderSupervision supervision) {
        this.parts = parts;
        this.supervision = supervision;
    }

    /** A forwarder over the current sink, settings, hand-off and buffer, on a supervised thread. */
    void start() {
        ChannelConfig config = parts.config;
        WriteWindow window = new WriteWindow(config.batchMaxItems()); // one for both ways the forwarder writes
        HandOffDelivery<T> handOffDelivery = new HandOffDelivery<>(this, parts.handOff, parts.latch,
                parts.buffer.reader(), parts.direct, window, System::nanoTime, parts.events, parts.clock);
        forwarder = new Forwarder<>(this, handOffDelivery, config, parts.sink, parts.codec, parts.buffer,
                parts.quarantineStore, parts.liveness, parts.events, parts.clock, window);
        // supervised: whatever kills the forwarder's thread, a new one takes over after a backoff
        thread = new SupervisedThread("forwarder-" + parts.connection, forwarder,
                config.backoffInitialMs(), config.backoffMaxMs(), supervision);
        forwarder.supervisedBy(thread);
        thread.start();
    }

    /** Ends the forwarder after its write in progress (waiting up to 10 s, then interrupting it). */
    void stop() throws InterruptedException {
        forwarder.requestStop();
        thread.requestStop();
        parts.wakeups.signal(Wakeups.Reason.STOP);
        if (!thread.join(Duration.ofSeconds(10).toMillis())) {
            thread.interrupt();
            thread.join(Duration.ofSeconds(5).toMillis());
        }
        forwarder.close();
    }

    /** True from a failure of the forwarder until it delivers normally again. */
    boolean failing() {
        SupervisedThread supervisor = thread;
        return supervisor != null && supervisor.failing();
    }

    /** How many times the forwarder's thread was restarted after a failure. */
    long restarts() {
        SupervisedThread supervisor = thread;
        return supervisor == null ? 0 : supervisor.restarts();
    }

    @Override
    public String connection() {
        return parts.connection;
    }

    @Override
    public ChannelCounters counters() {
        return parts.counters;
    }

    @Override
    public Wakeups wakeups() {
        return parts.wakeups;
    }

    @Override
    public boolean running() {
        return parts.running;
    }

    @Override
    public void checkStorage() {
        parts.losses.flush();
        DurableBuffer current = parts.buffer;
        if (current != null) {
            parts.losses.checkSyncFailures(() -> current.stats().syncFailures());
        }
    }

    @Override
    public ChannelState state() {
        return parts.state();
    }

    @Override
    public void state(ChannelState newState) {
        parts.state(newState);
    }

    @Override
    public boolean backlogHeld() {
        BacklogHold hold = parts.backlogHold;
        return hold != null && hold.held();
    }

    @Override
    public boolean handOffWaiting() {
        HandOff<T> current = parts.handOff;
        return current != null && current.hasQueued();
    }

    @Override
    public void bufferHandOff() {
        HandOff<T> current = parts.handOff;
        OrderingLatch latch = parts.latch;
        latch.exclusive().lock();
        try {
            if (!latch.isClosed() || current.hasQueued()) {
                parts.moveIntoBuffer(current, "the destination is down");
            }
        } finally {
            latch.exclusive().unlock();
            current.releaseSettled();
        }
    }

    @Override
    public boolean openLatchIfDrained() {
        return parts.latch.openIfEmpty(() -> parts.buffer.stats().records() == 0);
    }

    @Override
    public List<byte[]> encode(List<T> items) {
        return parts.encode(items);
    }

    @Override
    public SequenceRange appendLocked(OrderingLatch latch, List<byte[]> payloads, int alreadyIn)
            throws ChannelFullException, ChannelException {
        return parts.appendLocked(latch, payloads, alreadyIn);
    }
}
