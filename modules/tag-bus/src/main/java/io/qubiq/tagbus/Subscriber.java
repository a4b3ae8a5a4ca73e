package io.qubiq.tagbus;

import io.qubiq.core.event.EventPublisher;
import io.qubiq.core.tag.Custody;
import io.qubiq.core.tag.CustodyReceipt;
import io.qubiq.core.tag.TagValue;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
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
 *
 * <p><b>Custody.</b> A subscriber whose consumer is a {@link CustodialConsumer} takes a share of the
 * receipt of each value published with one and queues the two together ({@link Held}); its consumer
 * gets the batch's shares as one {@link Custody}. The subscriber itself releases the shares of a value
 * its overflow policy discards, of a batch its consumer throws on, and of the values still queued when
 * delivery stops (so an unsubscribe on a running gateway never leaves a source waiting for ever).
 * Other subscribers take no share: they keep nothing a crash could lose that a redelivery would bring.
 */
final class Subscriber implements Subscription {

    private final SubscriptionSpec spec;
    private final Consumer<Subscriber> onClose;
    /** Plain values, and for a custodial consumer {@link Held} values too. */
    private final DeliveryLane<Object> lane;
    private final boolean custodial;

    Subscriber(SubscriptionSpec spec, Consumer<Subscriber> onClose, Duration warningInterval, LongSupplier nanoClock) {
        this(spec, onClose, warningInterval, nanoClock, TagBus.LOSS_REPORT_INTERVAL, EventPublisher.none(),
                Clock.systemUTC());
    }

    Subscriber(SubscriptionSpec spec, Consumer<Subscriber> onClose, Duration warningInterval, LongSupplier nanoClock,
               Duration lossReportInterval, EventPublisher events, Clock clock) {
        this.spec = spec;
        this.onClose = onClose;
        this.custodial = spec.consumer() instanceof CustodialConsumer;
        this.lane = new DeliveryLane<>("tag-bus", spec.name(), "tagbus-" + spec.name(),
                "tag bus subscriber " + spec.name(), spec.capacityValues(), spec.overflowPolicy(),
                spec.maxBatchValues(), unwrapping(spec.consumer()), warningInterval, nanoClock, lossReportInterval,
                events, clock);
        if (custodial) {
            lane.whenDiscarded(Held::release);
        }
    }

    /** The lane's consumer: plain batches as they are; for a custodial consumer, values and shares apart. */
    @SuppressWarnings("unchecked")
    private static Consumer<List<Object>> unwrapping(Consumer<List<TagValue>> consumer) {
        if (!(consumer instanceof CustodialConsumer custodial)) {
            return batch -> consumer.accept((List<TagValue>) (List<?>) batch); // only plain values are queued
        }
        return batch -> {
            List<TagValue> values = new ArrayList<>(batch.size());
            List<Custody> shares = new ArrayList<>();
            for (Object queued : batch) {
                if (queued instanceof Held held) {
                    values.add(held.value());
                    shares.add(held.share());
                } else {
                    values.add((TagValue) queued);
                }
            }
            Custody custody = Custody.allOf(shares);
            try {
                custodial.accept(Collections.unmodifiableList(values), custody);
            } catch (RuntimeException | Error e) {
                custody.release(); // the batch is counted as failed: a loss, accounted for
                throw e;
            }
        };
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

    /**
     * As {@link #offer(TagValue)}, for a value whose source waits for custody: a custodial subscriber
     * takes a share of {@code receipt} and queues it with the value.
     */
    void offer(TagValue value, CustodyReceipt receipt) {
        if (!custodial) {
            offer(value);
            return;
        }
        boolean accepted;
        try {
            accepted = spec.filter().accepts(value.path());
        } catch (RuntimeException e) {
            lane.failedBeforeQueue(List.of(value), e, "filter");
            return;
        }
        if (accepted) {
            lane.offer(new Held(value, receipt.share()));
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
        boolean ended = lane.awaitStopped(deadlineNanos);
        if (custodial) {
            lane.forEachQueued(Held::release); // never delivered: no source may wait on them
        }
        return ended;
    }

    @Override
    public boolean drain(java.time.Duration timeout) throws InterruptedException {
        return lane.awaitDrained(System.nanoTime() + timeout.toNanos());
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

    /** Reports the values left queued once delivery stopped, which nobody will deliver. */
    void reportUndelivered(long values) {
        lane.reportUndelivered(values);
    }
}
