package io.qubiq.tagbus;

import io.qubiq.core.event.EventPublisher;
import io.qubiq.core.tag.TagValue;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * One subscriber of the tag bus: its filter, in front of a {@link DeliveryLane} (its bounded queue,
 * counters, loss reports and supervised delivery thread {@code tagbus-<name>}). {@link #offer} runs
 * on publishers' threads and never blocks on the consumer. A filter that throws costs the value it
 * threw on, counted as failed like a consumer's; see {@link DeliveryLane} for drops, a throwing
 * consumer and the restart of a failed delivery thread.
 */
final class Subscriber implements Subscription {

    private final SubscriptionSpec spec;
    private final Consumer<Subscriber> onClose;
    private final DeliveryLane<TagValue> lane;

    Subscriber(SubscriptionSpec spec, Consumer<Subscriber> onClose, Duration warningInterval, LongSupplier nanoClock) {
        this(spec, onClose, warningInterval, nanoClock, TagBus.LOSS_REPORT_INTERVAL, EventPublisher.none(),
                Clock.systemUTC());
    }

    Subscriber(SubscriptionSpec spec, Consumer<Subscriber> onClose, Duration warningInterval, LongSupplier nanoClock,
               Duration lossReportInterval, EventPublisher events, Clock clock) {
        this.spec = spec;
        this.onClose = onClose;
        this.lane = new DeliveryLane<>("tag-bus", spec.name(), "tagbus-" + spec.name(),
                "tag bus subscriber " + spec.name(), spec.capacityValues(), spec.overflowPolicy(),
                spec.maxBatchValues(), spec.consumer(), warningInterval, nanoClock, lossReportInterval, events, clock);
    }

    @Override
    public String name() {
        return spec.name();
    }

    /** Called on a publisher's thread: queues the value if the filter accepts it, counting any drop. */
    void offer(TagValue value) {
        boolean accepted;
        try {
            accepted = spec.filter().accepts(value.path());
        } catch (RuntimeException e) {
            lane.failedBeforeQueue(List.of(value), e, "filter");
            return;
        }
        if (accepted) {
            lane.offer(value);
        }
    }

    void start() {
        lane.start();
    }

    /** Asks the delivery thread to stop after, or by interrupting, the batch in hand. Idempotent. */
    void requestStop() {
        lane.requestStop();
    }

    /** See {@link DeliveryLane#failure()}. */
    Optional<String> failure() {
        return lane.failure();
    }

    /** How many times the delivery thread was restarted after a failure. */
    long restarts() {
        return lane.restarts();
    }

    /**
     * Waits until the delivery thread has ended or {@code deadlineNanos} (a {@link System#nanoTime}
     * instant) passed. Returns true when it ended.
     */
    boolean awaitStopped(long deadlineNanos) throws InterruptedException {
        return lane.awaitStopped(deadlineNanos);
    }

    @Override
    public SubscriberStats stats() {
        return lane.stats();
    }

    @Override
    public void close() {
        onClose.accept(this);
    }

    /** Reports every loss not reported yet; after the delivery thread ended, or when it was abandoned. */
    void reportPendingLosses() {
        lane.reportPendingLosses();
    }
}
