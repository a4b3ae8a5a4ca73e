package io.qubiq.tagbus;

import io.qubiq.core.event.DataLoss;
import io.qubiq.core.event.EventPublisher;
import io.qubiq.core.event.LossReason;
import io.qubiq.core.event.SubscriberFailedAlarm;
import io.qubiq.core.lifecycle.SupervisedThread;
import io.qubiq.core.tag.TagValue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * One subscriber of the tag bus: its filter, its {@link SubscriberQueue}, its counters and its
 * delivery thread {@code tagbus-<name>}, a daemon that takes batches from the queue and hands them
 * to the consumer. {@link #offer} runs on publishers' threads and never blocks on the consumer;
 * the consumer runs only on the delivery thread. Dropped values are reported to the loss ledger as
 * {@link LossReason#TAG_BUS_OVERFLOW}, summed by a {@link LossTally}: at most one report per
 * interval, the rest when delivery catches up or the subscriber stops.
 *
 * <p><b>A consumer that throws.</b> An exception: the batch's values are counted as failed and
 * reported to the loss ledger as {@link LossReason#SUBSCRIBER_FAILED} (summed the same way), a WARN
 * is logged at most once per interval, and delivery goes on with the next batch. An {@link Error}
 * (such as {@code OutOfMemoryError}): the batch is counted and reported the same way, and the error
 * ends the delivery thread, which is a {@link SupervisedThread}: it is logged with its stack, the
 * {@code subscriber_failed} alarm ({@link SubscriberFailedAlarm}) is raised, {@link #failure()} names
 * it (the gateway lists it as degraded on {@code /health}), and a new delivery thread starts after a
 * backoff ({@link #RESTART_INITIAL_MS} doubling up to {@link #RESTART_MAX_MS}). The alarm clears when
 * the new thread has delivered a batch normally. Values keep queueing meanwhile (and overflow, counted).
 */
final class Subscriber implements Subscription {

    private static final Logger log = LoggerFactory.getLogger(Subscriber.class);
    /** The first restart of a failed delivery thread waits this long; each failure in a row doubles it. */
    static final long RESTART_INITIAL_MS = 100;
    static final long RESTART_MAX_MS = 30_000;

    private final SubscriptionSpec spec;
    private final SubscriberQueue queue;
    private final Consumer<Subscriber> onClose;
    private final WarningThrottle dropWarnings;
    private final WarningThrottle errorWarnings;
    private final LossTally losses;
    private final LossTally failures;
    private final EventPublisher events;
    private final Clock clock;
    private final AtomicLong delivered = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong consumerErrors = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private volatile boolean stopping;
    private volatile SupervisedThread thread;
    /** What killed the delivery thread last, while it has not delivered normally since. */
    private volatile String failure = "";

    Subscriber(SubscriptionSpec spec, Consumer<Subscriber> onClose, Duration warningInterval, LongSupplier nanoClock) {
        this(spec, onClose, warningInterval, nanoClock, TagBus.LOSS_REPORT_INTERVAL, EventPublisher.none(),
                Clock.systemUTC());
    }

    Subscriber(SubscriptionSpec spec, Consumer<Subscriber> onClose, Duration warningInterval, LongSupplier nanoClock,
               Duration lossReportInterval, EventPublisher events, Clock clock) {
        this.spec = spec;
        this.losses = new LossTally(lossReportInterval, nanoClock);
        this.failures = new LossTally(lossReportInterval, nanoClock);
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
        SupervisedThread delivery = new SupervisedThread("tagbus-" + name(), this::deliver, RESTART_INITIAL_MS,
                RESTART_MAX_MS, new Supervision());
        thread = delivery;
        delivery.start();
    }

    /** Asks the delivery thread to stop after, or by interrupting, the batch in hand. Idempotent. */
    synchronized void requestStop() {
        stopping = true;
        SupervisedThread delivery = thread;
        if (delivery != null) {
            delivery.requestStop();
            delivery.interrupt();
        }
    }

    /**
     * What killed the delivery thread ({@code class: message}), from its failure until the restarted
     * thread has delivered normally; empty otherwise.
     */
    Optional<String> failure() {
        SupervisedThread delivery = thread;
        return delivery != null && delivery.failing() ? Optional.of(failure) : Optional.empty();
    }

    /** How many times the delivery thread was restarted after a failure. */
    long restarts() {
        SupervisedThread delivery = thread;
        return delivery == null ? 0 : delivery.restarts();
    }

    /**
     * Waits until the delivery thread has ended or {@code deadlineNanos} (a {@link System#nanoTime}
     * instant) passed. Returns true when it ended. Never waits when called from the delivery thread.
     */
    boolean awaitStopped(long deadlineNanos) throws InterruptedException {
        SupervisedThread delivery = thread;
        if (delivery == null) {
            return true;
        }
        return delivery.join(Math.max(0, TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime())));
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
            } catch (Error e) {
                // the batch is lost with the thread; the supervisor reports the error and restarts it
                consumerErrors.incrementAndGet();
                failed.addAndGet(batch.size());
                failures.add(batch.size()).ifPresent(this::reportFailed);
                reportPendingLosses();
                throw e;
            }
            SupervisedThread delivery = thread;
            if (delivery != null && !stopping) {
                delivery.workedNormally();
            }
            // caught up: report what is left at once; still behind: at most one report per interval
            boolean caughtUp = queue.size() == 0;
            (caughtUp ? losses.all() : losses.due()).ifPresent(this::reportLoss);
            (caughtUp ? failures.all() : failures.due()).ifPresent(this::reportFailed);
        }
        reportPendingLosses();
        log.debug("tag bus subscriber {}: delivery thread ended", name());
    }

    /** Reports every drop not reported yet; after the delivery thread ended, or when it was abandoned. */
    void reportPendingLosses() {
        losses.all().ifPresent(this::reportLoss);
        failures.all().ifPresent(this::reportFailed);
    }

    private void reportFailed(long values) {
        try {
            events.lost(DataLoss.of(clock.instant(), "tag-bus", name(), LossReason.SUBSCRIBER_FAILED, values, 0,
                    values + " value(s) lost: the subscriber's consumer threw while handling them; delivery went on"
                            + " with the next values"));
        } catch (RuntimeException e) {
            log.warn("tag bus subscriber {}: reporting {} failed value(s) failed: {}", name(), values, e.toString());
        }
    }

    /** Reports the delivery thread's failures and recoveries (see the class doc). */
    private final class Supervision implements SupervisedThread.Listener {

        @Override
        public void failed(Throwable error, int consecutiveFailures, long restartInMs) {
            String what = error.getMessage() == null ? error.getClass().getName()
                    : error.getClass().getName() + ": " + error.getMessage();
            failure = what;
            log.error("tag bus subscriber {}: delivery thread failed ({} in a row): {}; restarting it in {} ms",
                    name(), consecutiveFailures, what, restartInMs, error);
            if (consecutiveFailures == 1) {
                events.alarm(new SubscriberFailedAlarm(name(), true, clock.instant(), what, consecutiveFailures));
            }
        }

        @Override
        public void recovered() {
            log.info("tag bus subscriber {}: delivers normally again after its restart", name());
            events.alarm(new SubscriberFailedAlarm(name(), false, clock.instant(), failure, 0));
        }
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
            // interrupted by the stop: counted, and like the values still queued at a stop, not a ledger entry
            log.debug("tag bus subscriber {}: {} threw while stopping", name(), what, e);
            return;
        }
        failures.add(values.size()).ifPresent(this::reportFailed);
        OptionalLong due = errorWarnings.record();
        if (due.isPresent()) {
            log.warn("tag bus subscriber {}: {} threw {} time(s) since the last report, losing {} value(s) in total "
                            + "for this subscriber; delivery continues", name(), what, due.getAsLong(), failed.get(), e);
        }
    }
}
