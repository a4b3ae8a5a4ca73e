package io.qubiq.tagbus;

import io.qubiq.core.event.DataLoss;
import io.qubiq.core.event.EventPublisher;
import io.qubiq.core.event.LossReason;
import io.qubiq.core.tag.TagValue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * One subscriber of the tag bus: its filter, its {@link SubscriberQueue}, its counters and its
 * delivery thread {@code tagbus-<name>}, a daemon that takes batches from the queue and hands them
 * to the consumer. {@link #offer} runs on publishers' threads and never blocks on the consumer;
 * the consumer runs only on the delivery thread. A consumer that throws is counted and logged,
 * and delivery goes on with the next batch. Dropped values are reported to the loss ledger as
 * {@link LossReason#TAG_BUS_OVERFLOW}, summed by a {@link LossTally}: at most one report per
 * interval, the rest when delivery catches up or the subscriber stops.
 */
final class Subscriber implements Subscription {

    private static final Logger log = LoggerFactory.getLogger(Subscriber.class);

    private final SubscriptionSpec spec;
    private final SubscriberQueue queue;
    private final Consumer<Subscriber> onClose;
    private final WarningThrottle dropWarnings;
    private final WarningThrottle errorWarnings;
    private final LossTally losses;
    private final EventPublisher events;
    private final Clock clock;
    private final AtomicLong delivered = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong consumerErrors = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private volatile boolean stopping;
    private volatile Thread thread;

    Subscriber(SubscriptionSpec spec, Consumer<Subscriber> onClose, Duration warningInterval, LongSupplier nanoClock) {
        this(spec, onClose, warningInterval, nanoClock, TagBus.LOSS_REPORT_INTERVAL, EventPublisher.none(),
                Clock.systemUTC());
    }

    Subscriber(SubscriptionSpec spec, Consumer<Subscriber> onClose, Duration warningInterval, LongSupplier nanoClock,
               Duration lossReportInterval, EventPublisher events, Clock clock) {
        this.spec = spec;
        this.losses = new LossTally(lossReportInterval, nanoClock);
        this.events = events;
        this.clock = clock;
        this.queue = new SubscriberQueue(spec.capacityValues(), spec.overflowPolicy());
        this.onClose = onClose;
        this.dropWarnings = new WarningThrottle(warningInterval, nanoClock);
        this.errorWarnings = new WarningThrottle(warningInterval, nanoClock);
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
            countFailure(List.of(value), e, "filter");
            return;
        }
        if (accepted && queue.offer(value)) {
            dropped.incrementAndGet();
            losses.add(1).ifPresent(this::reportLoss);
            OptionalLong due = dropWarnings.record();
            if (due.isPresent()) {
                log.warn("tag bus subscriber {}: {} value(s) dropped since the last report, {} in total (queue full "
                                + "at {} values, policy {}); its consumer is not keeping up",
                        name(), due.getAsLong(), dropped.get(), queue.capacity(), spec.overflowPolicy());
            }
        }
    }

    synchronized void start() {
        if (thread != null || stopping) {
            return;
        }
        Thread delivery = new Thread(this::deliver, "tagbus-" + name());
        delivery.setDaemon(true);
        thread = delivery;
        delivery.start();
    }

    /** Asks the delivery thread to stop after, or by interrupting, the batch in hand. Idempotent. */
    synchronized void requestStop() {
        stopping = true;
        Thread delivery = thread;
        if (delivery != null) {
            delivery.interrupt();
        }
    }

    /**
     * Waits until the delivery thread has ended or {@code deadlineNanos} (a {@link System#nanoTime}
     * instant) passed. Returns true when it ended. Never waits when called from the delivery thread.
     */
    boolean awaitStopped(long deadlineNanos) throws InterruptedException {
        Thread delivery = thread;
        if (delivery == null || delivery == Thread.currentThread()) {
            return true;
        }
        long remaining = deadlineNanos - System.nanoTime();
        if (remaining > 0) {
            TimeUnit.NANOSECONDS.timedJoin(delivery, remaining);
        }
        return !delivery.isAlive();
    }

    @Override
    public SubscriberStats stats() {
        return new SubscriberStats(name(), spec.overflowPolicy(), queue.capacity(), queue.size(), delivered.get(),
                dropped.get(), consumerErrors.get(), failed.get());
    }

    @Override
    public void close() {
        onClose.accept(this);
    }

    private void deliver() {
        while (!stopping) {
            List<TagValue> batch;
            try {
                batch = queue.take(spec.maxBatchValues());
            } catch (InterruptedException e) {
                continue; // a stop sets the flag before interrupting; any other interrupt is not ours
            }
            try {
                spec.consumer().accept(batch);
                delivered.addAndGet(batch.size());
            } catch (RuntimeException e) {
                countFailure(batch, e, "consumer");
            }
            // caught up: report what is left at once; still behind: at most one report per interval
            (queue.size() == 0 ? losses.all() : losses.due()).ifPresent(this::reportLoss);
        }
        reportPendingLosses();
        log.debug("tag bus subscriber {}: delivery thread ended", name());
    }

    /** Reports every drop not reported yet; after the delivery thread ended, or when it was abandoned. */
    void reportPendingLosses() {
        losses.all().ifPresent(this::reportLoss);
    }

    private void reportLoss(long values) {
        try {
            events.lost(DataLoss.of(clock.instant(), "tag-bus", name(), LossReason.TAG_BUS_OVERFLOW, values, 0,
                    values + " value(s) dropped: subscriber queue full at " + queue.capacity() + " values (policy "
                            + spec.overflowPolicy() + "); its consumer is not keeping up"));
        } catch (RuntimeException e) {
            log.warn("tag bus subscriber {}: reporting {} dropped value(s) failed: {}", name(), values, e.toString());
        }
    }

    private void countFailure(List<TagValue> values, RuntimeException e, String what) {
        consumerErrors.incrementAndGet();
        failed.addAndGet(values.size());
        if (stopping) {
            log.debug("tag bus subscriber {}: {} threw while stopping", name(), what, e);
            return;
        }
        OptionalLong due = errorWarnings.record();
        if (due.isPresent()) {
            log.warn("tag bus subscriber {}: {} threw {} time(s) since the last report, losing {} value(s) in total "
                            + "for this subscriber; delivery continues", name(), what, due.getAsLong(), failed.get(), e);
        }
    }
}
