package io.qubiq.tagbus;

import io.qubiq.core.event.DataLoss;
import io.qubiq.core.event.EventPublisher;
import io.qubiq.core.event.LossReason;
import io.qubiq.core.event.SubscriberFailedAlarm;
import io.qubiq.core.lifecycle.SupervisedThread;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A bounded queue with its own supervised delivery thread: what every tag-bus subscriber runs on,
 * and what a pipeline triggered by MQTT messages runs on instead of the connector's thread.
 * {@link #offer} runs on producers' threads and never blocks on the consumer; the consumer runs only
 * on the delivery thread, in batches of up to {@code maxBatch} in queue order.
 *
 * <p><b>Overflow.</b> When the queue is full its {@link OverflowPolicy} discards a value; every
 * discard is counted and reported to the loss ledger as {@link LossReason#TAG_BUS_OVERFLOW}, summed by
 * a {@link LossTally}: the first at once, then at most one report per interval, the rest when
 * delivery catches up or stops.
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
 * A consumer interrupted by a stop loses its batch, counted but not reported to the ledger; the values
 * still queued once delivery stopped are reported ({@link #reportUndelivered}, by the bus).
 *
 * <p>Threading: {@link #offer} and the readers are safe from any thread; {@link #start},
 * {@link #requestStop} and {@link #awaitStopped} from the owner's lifecycle thread.
 *
 * @param <V> what is queued: tag values, messages
 */
public final class DeliveryLane<V> {

    private static final Logger log = LoggerFactory.getLogger(DeliveryLane.class);
    /** The first restart of a failed delivery thread waits this long; each failure in a row doubles it. */
    public static final long RESTART_INITIAL_MS = 100;
    public static final long RESTART_MAX_MS = 30_000;

    private final String component;
    private final String name;
    private final String threadName;
    private final String label;
    private final OverflowPolicy policy;
    private final int maxBatch;
    private final Consumer<List<V>> consumer;
    private final SubscriberQueue<V> queue;
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
    /** Told of each value the overflow policy discards (a custodial subscriber releases its share). */
    private volatile Consumer<? super V> whenDiscarded = value -> { };

    /**
     * A lane outside the tag bus, such as a pipeline's MQTT trigger: its thread is named
     * {@code <component>-<name>}, its losses are reported for {@code component} and {@code name}.
     */
    public static <V> DeliveryLane<V> of(String component, String name, int capacity, OverflowPolicy policy,
                                         int maxBatch, Consumer<List<V>> consumer, EventPublisher events,
                                         Clock clock) {
        return new DeliveryLane<>(component, name, component + "-" + name, component + " " + name, capacity, policy,
                maxBatch, consumer, TagBus.WARNING_INTERVAL, System::nanoTime, TagBus.LOSS_REPORT_INTERVAL, events,
                clock);
    }

    DeliveryLane(String component, String name, String threadName, String label, int capacity,
                 OverflowPolicy policy, int maxBatch, Consumer<List<V>> consumer, Duration warningInterval,
                 LongSupplier nanoClock, Duration lossReportInterval, EventPublisher events, Clock clock) {
        if (capacity < 1 || maxBatch < 1) {
            throw new IllegalArgumentException(label + ": capacity and batch size must be at least 1, got "
                    + capacity + " and " + maxBatch);
        }
        this.component = component;
        this.name = name;
        this.threadName = threadName;
        this.label = label;
        this.policy = policy;
        this.maxBatch = maxBatch;
        this.consumer = consumer;
        this.queue = new SubscriberQueue<>(capacity, policy);
        this.dropWarnings = new WarningThrottle(warningInterval, nanoClock);
        this.errorWarnings = new WarningThrottle(warningInterval, nanoClock);
        this.losses = new LossTally(lossReportInterval, nanoClock);
        this.failures = new LossTally(lossReportInterval, nanoClock);
        this.events = events;
        this.clock = clock;
    }

    /** Queues {@code value} under the overflow policy, counting and reporting a discard. Never blocks. */
    public void offer(V value) {
        V discarded = queue.offer(value);
        if (discarded == null) {
            return;
        }
        whenDiscarded.accept(discarded);
        dropped.incrementAndGet();
        losses.add(1).ifPresent(this::reportLoss);
        OptionalLong due = dropWarnings.record();
        if (due.isPresent()) {
            log.warn("{}: {} value(s) dropped since the last report, {} in total (queue full at {} values, policy {});"
                    + " its consumer is not keeping up", label, due.getAsLong(), dropped.get(), queue.capacity(), policy);
        }
    }

    /**
     * Tells {@code listener} of every value the overflow policy discards, on the offering thread (a
     * queue of values that hold a source's custody releases it). Call before values are offered.
     */
    public void whenDiscarded(Consumer<? super V> listener) {
        this.whenDiscarded = listener;
    }

    /** Hands {@code action} each value still queued, leaving them queued (after delivery stopped). */
    public void forEachQueued(Consumer<? super V> action) {
        queue.copy().forEach(action);
    }

    /**
     * Waits until every value queued so far has been handed to the consumer and handled, or {@code
     * deadlineNanos} (a {@link System#nanoTime} instant) passed, or delivery stopped or is failing. Returns
     * whether it drained.
     */
    public boolean awaitDrained(long deadlineNanos) throws InterruptedException {
        while (!queue.drained()) {
            SupervisedThread delivery = thread;
            if (stopping || delivery == null || delivery.failing() || System.nanoTime() - deadlineNanos >= 0) {
                return false;
            }
            Thread.sleep(5);
        }
        return true;
    }

    /** Starts the delivery thread. Idempotent; a stopped lane does not start again. */
    public synchronized void start() {
        if (thread != null || stopping) {
            return;
        }
        SupervisedThread delivery = new SupervisedThread(threadName, this::deliver, RESTART_INITIAL_MS,
                RESTART_MAX_MS, new Supervision());
        thread = delivery;
        delivery.start();
    }

    /** Asks the delivery thread to stop after, or by interrupting, the batch in hand. Idempotent. */
    public synchronized void requestStop() {
        stopping = true;
        SupervisedThread delivery = thread;
        if (delivery != null) {
            delivery.requestStop();
            delivery.interrupt();
        }
    }

    /**
     * Waits until the delivery thread has ended or {@code deadlineNanos} (a {@link System#nanoTime}
     * instant) passed, then reports the losses not reported yet. Returns true when it ended.
     */
    public boolean awaitStopped(long deadlineNanos) throws InterruptedException {
        SupervisedThread delivery = thread;
        boolean ended = delivery == null
                || delivery.join(Math.max(0, TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime())));
        reportPendingLosses();
        return ended;
    }

    /**
     * What killed the delivery thread ({@code class: message}), from its failure until the restarted
     * thread has delivered normally; empty otherwise.
     */
    public Optional<String> failure() {
        SupervisedThread delivery = thread;
        return delivery != null && delivery.failing() ? Optional.of(failure) : Optional.empty();
    }

    /** How many times the delivery thread was restarted after a failure. */
    public long restarts() {
        SupervisedThread delivery = thread;
        return delivery == null ? 0 : delivery.restarts();
    }

    public SubscriberStats stats() {
        return new SubscriberStats(name, policy, queue.capacity(), queue.size(), delivered.get(), dropped.get(),
                consumerErrors.get(), failed.get());
    }

    /** Counts values that failed before they were queued (a subscriber's filter threw on them). */
    void failedBeforeQueue(List<V> values, RuntimeException e, String what) {
        countFailure(values, e, what);
    }

    private void deliver() {
        while (!stopping) {
            List<V> batch;
            try {
                batch = queue.take(maxBatch);
            } catch (InterruptedException e) {
                continue; // a stop sets the flag before interrupting; any other interrupt is not ours
            }
            try {
                consumer.accept(batch);
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
        log.debug("{}: delivery thread ended", label);
    }

    /** Reports every loss not reported yet; after the delivery thread ended, or when it was abandoned. */
    void reportPendingLosses() {
        losses.all().ifPresent(this::reportLoss);
        failures.all().ifPresent(this::reportFailed);
    }

    /**
     * Reports the {@code values} still queued after delivery stopped (a close or the bus's stop), which
     * nobody will deliver: {@link LossReason#SUBSCRIBER_CLOSED}.
     */
    void reportUndelivered(long values) {
        try {
            events.lost(DataLoss.of(clock.instant(), component, name, LossReason.SUBSCRIBER_CLOSED, values, 0,
                    values + " value(s) still queued when the subscriber was closed (a removed or changed pipeline"
                            + " trigger, or the gateway stopping) were never delivered"));
        } catch (RuntimeException e) {
            log.warn("{}: reporting {} undelivered value(s) failed: {}", label, values, e.toString());
        }
    }

    private void reportLoss(long values) {
        try {
            events.lost(DataLoss.of(clock.instant(), component, name, LossReason.TAG_BUS_OVERFLOW, values, 0,
                    values + " value(s) dropped: subscriber queue full at " + queue.capacity() + " values (policy "
                            + policy + "); its consumer is not keeping up"));
        } catch (RuntimeException e) {
            log.warn("{}: reporting {} dropped value(s) failed: {}", label, values, e.toString());
        }
    }

    private void reportFailed(long values) {
        try {
            events.lost(DataLoss.of(clock.instant(), component, name, LossReason.SUBSCRIBER_FAILED, values, 0,
                    values + " value(s) lost: the subscriber's consumer threw while handling them; delivery went on"
                            + " with the next values"));
        } catch (RuntimeException e) {
            log.warn("{}: reporting {} failed value(s) failed: {}", label, values, e.toString());
        }
    }

    private void countFailure(List<V> values, RuntimeException e, String what) {
        consumerErrors.incrementAndGet();
        failed.addAndGet(values.size());
        if (stopping) {
            log.debug("{}: {} threw while stopping", label, what, e);
            return;
        }
        failures.add(values.size()).ifPresent(this::reportFailed);
        OptionalLong due = errorWarnings.record();
        if (due.isPresent()) {
            log.warn("{}: {} threw {} time(s) since the last report, losing {} value(s) in total; delivery continues",
                    label, what, due.getAsLong(), failed.get(), e);
        }
    }

    /** Reports the delivery thread's failures and recoveries (see the class doc). */
    private final class Supervision implements SupervisedThread.Listener {

        @Override
        public void failed(Throwable error, int consecutiveFailures, long restartInMs) {
            String what = error.getMessage() == null ? error.getClass().getName()
                    : error.getClass().getName() + ": " + error.getMessage();
            failure = what;
            log.error("{}: delivery thread failed ({} in a row): {}; restarting it in {} ms", label,
                    consecutiveFailures, what, restartInMs, error);
            if (consecutiveFailures == 1) {
                events.alarm(new SubscriberFailedAlarm(name, true, clock.instant(), what, consecutiveFailures));
            }
        }

        @Override
        public void recovered() {
            log.info("{}: delivers normally again after its restart", label);
            events.alarm(new SubscriberFailedAlarm(name, false, clock.instant(), failure, 0));
        }
    }
}
