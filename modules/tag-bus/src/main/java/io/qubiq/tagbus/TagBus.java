package io.qubiq.tagbus;

import io.qubiq.core.event.EventPublisher;
import io.qubiq.core.lifecycle.Component;
import io.qubiq.core.lifecycle.ComponentState;
import io.qubiq.core.tag.TagPublisher;
import io.qubiq.core.tag.TagValue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Publishes each tag value once: records it in the {@link LatestValues latest-value table} and
 * offers it to every subscriber's bounded queue, whose {@link OverflowPolicy} discards and counts
 * a value when the subscriber falls behind. {@link #publish} never waits for a subscriber.
 *
 * <p><b>Threading.</b> Safe for concurrent publishers, subscribers and readers. Each subscriber's
 * consumer runs on its own daemon thread {@code tagbus-<name>}, so a slow or throwing consumer
 * affects only its own queue and counters. Publishers read the subscribers from an array that
 * subscribing and unsubscribing replace (copy on write), so a publish allocates nothing and takes
 * no lock for the subscriber list; a subscription that ends while a value is being published may
 * still have that value queued, which it never delivers.
 *
 * <p><b>Ordering.</b> Values of one tag reach every subscriber in the order their {@code publish}
 * calls took effect, and the latest-value table ends on the last of them: publishing a value
 * updates the table and all queues under a lock striped by tag path. So one publisher's values of a
 * tag keep their order, and concurrent publishers of the same tag are ordered by whichever call
 * takes the stripe first, the same order for the table and every subscriber. Values of different
 * tags carry no order relative to each other across publishers.
 *
 * <p><b>Lifecycle.</b> Subscribe before or after {@link #start}; delivery threads run from
 * {@code start} (or from {@code subscribe} on a running bus). {@link #publish} is accepted only
 * while running and otherwise throws {@link IllegalStateException}: connectors start after the bus
 * and stop before it, so a publish outside that window is a wiring bug and fails loudly rather
 * than losing the value quietly. {@link #stop} is idempotent: it delivers nothing further,
 * interrupts every delivery thread and waits for them at most the stop timeout in total; values
 * still queued stay visible as {@link SubscriberStats#queued()} and are logged. A stopped bus does
 * not restart.
 *
 * <p><b>Losses.</b> Every value a subscriber's overflow policy discards is reported to the
 * {@link EventPublisher} as {@code tag_bus_overflow} for that subscriber, and every value its consumer
 * threw on as {@code subscriber_failed}, summed per {@link #LOSS_REPORT_INTERVAL}, never one report
 * per value.
 *
 * <p><b>Custody.</b> A value published with a {@link io.qubiq.core.tag.CustodyReceipt} (a QoS 1 or 2
 * MQTT message, acknowledged only once kept) gives a share of it to each subscriber whose consumer is a
 * {@link CustodialConsumer} (it keeps data durably: the historian, tag-triggered pipelines) and none to
 * the others; see {@link Subscriber} for the shares the bus releases itself (overflow, a throwing
 * consumer, values still queued at a stop or unsubscribe).
 *
 * <p><b>Supervision.</b> A consumer that throws never ends its subscriber: an exception costs the
 * batch in hand (counted, reported); an {@code Error} also restarts the delivery thread with backoff,
 * raising the {@code subscriber_failed} alarm until it delivers again ({@link #failingSubscribers}).
 */
public final class TagBus implements TagPublisher, Component {

    public static final Duration DEFAULT_STOP_TIMEOUT = Duration.ofSeconds(5);
    /** At most one WARN line per subscriber and problem (drops, consumer errors) in this interval. */
    public static final Duration WARNING_INTERVAL = Duration.ofSeconds(10);
    /** Dropped values are reported as a loss at most once per subscriber in this interval (the first at once). */
    public static final Duration LOSS_REPORT_INTERVAL = Duration.ofSeconds(1);

    private static final Logger log = LoggerFactory.getLogger(TagBus.class);
    private static final int STRIPES = 64;

    private final Duration stopTimeout;
    private final EventPublisher events;
    private final Clock clock;
    private final Object[] stripes = new Object[STRIPES];
    private final LatestValues latestValues = new LatestValues();
    private final ConcurrentHashMap<String, Subscriber> subscribers = new ConcurrentHashMap<>();
    /** Guards replacing {@link #fanOut}; never held while publishing or waiting for a thread. */
    private final Object fanOutWrites = new Object();
    /** The subscribers publish offers to: replaced whole, never changed in place. */
    private volatile Subscriber[] fanOut = new Subscriber[0];
    private final LongAdder published = new LongAdder();
    private final Object lifecycle = new Object();
    private volatile ComponentState state = ComponentState.NEW;

    public TagBus() {
        this(DEFAULT_STOP_TIMEOUT);
    }

    /** @param stopTimeout how long {@link #stop} waits in total for delivery threads to end */
    public TagBus(Duration stopTimeout) {
        this(stopTimeout, EventPublisher.none(), Clock.systemUTC());
    }

    /**
     * @param stopTimeout how long {@link #stop} waits in total for delivery threads to end
     * @param events where dropped values are reported as losses
     * @param clock stamps those reports
     */
    public TagBus(Duration stopTimeout, EventPublisher events, Clock clock) {
        Objects.requireNonNull(stopTimeout, "stopTimeout");
        this.events = Objects.requireNonNull(events, "events");
        this.clock = Objects.requireNonNull(clock, "clock");
        if (stopTimeout.isNegative()) {
            throw new IllegalArgumentException("stopTimeout must not be negative, got " + stopTimeout);
        }
        this.stopTimeout = stopTimeout;
        for (int i = 0; i < STRIPES; i++) {
            stripes[i] = new Object();
        }
    }

    @Override
    public String name() {
        return "tag-bus";
    }

    /** Starts the delivery threads of the subscribers so far. Idempotent while running. */
    @Override
    public void start() {
        synchronized (lifecycle) {
            if (state == ComponentState.RUNNING) {
                return;
            }
            if (state != ComponentState.NEW) {
                throw new IllegalStateException("the tag bus is " + state + " and cannot start again");
            }
            subscribers.values().forEach(Subscriber::start);
            state = ComponentState.RUNNING;
            log.info("tag bus started with {} subscriber(s)", subscribers.size());
        }
    }

    /**
     * Stops delivery within the stop timeout, interrupting consumers. Idempotent. A consumer that
     * ignores interruption is abandoned (its thread is a daemon) and named in a WARN.
     */
    @Override
    public void stop() throws InterruptedException {
        synchronized (lifecycle) {
            if (state == ComponentState.STOPPED || state == ComponentState.STOPPING) {
                return;
            }
            state = ComponentState.STOPPING;
            try {
                long deadline = System.nanoTime() + stopTimeout.toNanos();
                subscribers.values().forEach(Subscriber::requestStop);
                for (Subscriber subscriber : subscribers.values()) {
                    awaitStopped(subscriber, deadline);
                }
            } finally {
                state = ComponentState.STOPPED;
            }
            log.info("tag bus stopped after {} published value(s)", published.sum());
        }
    }

    /**
     * Records {@code value} as its tag's latest and queues it for every subscriber that accepts the
     * path. Never blocks on a subscriber.
     *
     * @throws IllegalStateException when the bus is not running
     */
    @Override
    public void publish(TagValue value) {
        Objects.requireNonNull(value, "value");
        ComponentState now = state;
        if (now != ComponentState.RUNNING) {
            throw new IllegalStateException("the tag bus is " + now + ": value of " + value.path()
                    + " rejected (connectors must start after the tag bus and stop before it)");
        }
        synchronized (stripeOf(value)) {
            latestValues.put(value);
            for (Subscriber subscriber : fanOut) {
                subscriber.offer(value);
            }
        }
        published.increment();
    }

    /**
     * As {@link #publish(TagValue)}, for a value of a message whose source acknowledges only once the
     * value is kept: each subscriber with a {@link CustodialConsumer} that accepts the path takes a
     * share of {@code receipt} (see {@link Subscriber}); the others take none.
     *
     * @throws IllegalStateException when the bus is not running (no share was taken)
     */
    @Override
    public void publish(TagValue value, io.qubiq.core.tag.CustodyReceipt receipt) {
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(receipt, "receipt");
        ComponentState now = state;
        if (now != ComponentState.RUNNING) {
            throw new IllegalStateException("the tag bus is " + now + ": value of " + value.path()
                    + " rejected (connectors must start after the tag bus and stop before it)");
        }
        synchronized (stripeOf(value)) {
            latestValues.put(value);
            for (Subscriber subscriber : fanOut) {
                subscriber.offer(value, receipt);
            }
        }
        published.increment();
    }

    /**
     * Adds a subscriber. It receives values published after this call returns; on a running bus
     * its delivery thread starts now, otherwise at {@link #start}.
     *
     * @throws IllegalArgumentException when a subscriber of the same name exists
     * @throws IllegalStateException    when the bus is stopping or stopped
     */
    public Subscription subscribe(SubscriptionSpec spec) {
        Objects.requireNonNull(spec, "spec");
        synchronized (lifecycle) {
            if (state == ComponentState.STOPPING || state == ComponentState.STOPPED) {
                throw new IllegalStateException("the tag bus is " + state + ": cannot subscribe " + spec.name());
            }
            Subscriber subscriber = new Subscriber(spec, this::unsubscribe, WARNING_INTERVAL, System::nanoTime,
                    LOSS_REPORT_INTERVAL, events, clock);
            synchronized (fanOutWrites) {
                Subscriber existing = subscribers.putIfAbsent(spec.name(), subscriber);
                if (existing != null) {
                    throw new IllegalArgumentException("a tag bus subscriber named \"" + spec.name()
                            + "\" already exists; subscriber names must be unique");
                }
                fanOut = subscribers.values().toArray(new Subscriber[0]);
            }
            if (state == ComponentState.RUNNING) {
                subscriber.start();
            }
            log.info("tag bus subscriber {} added (capacity {} values, policy {}, batches of up to {})",
                    spec.name(), spec.capacityValues(), spec.overflowPolicy(), spec.maxBatchValues());
            return subscriber;
        }
    }

    /** The latest value of every tag; readable at any time, also before start and after stop. */
    public LatestValues latestValues() {
        return latestValues;
    }

    public TagBusStats stats() {
        List<SubscriberStats> each = new ArrayList<>();
        for (Subscriber subscriber : subscribers.values()) {
            each.add(subscriber.stats());
        }
        each.sort(Comparator.comparing(SubscriberStats::name));
        return new TagBusStats(published.sum(), latestValues.size(), each);
    }

    public ComponentState state() {
        return state;
    }

    /**
     * The subscribers whose delivery thread failed (an {@code Error} from the consumer) and has not
     * delivered normally since its restart, by name, each with what killed it ({@code class: message}).
     */
    public java.util.SortedMap<String, String> failingSubscribers() {
        java.util.SortedMap<String, String> failing = new java.util.TreeMap<>();
        for (Subscriber subscriber : subscribers.values()) {
            subscriber.failure().ifPresent(error -> failing.put(subscriber.name(), error));
        }
        return failing;
    }

    private void unsubscribe(Subscriber subscriber) {
        synchronized (fanOutWrites) {
            if (!subscribers.remove(subscriber.name(), subscriber)) {
                return;
            }
            fanOut = subscribers.values().toArray(new Subscriber[0]);
        }
        subscriber.requestStop();
        try {
            awaitStopped(subscriber, System.nanoTime() + stopTimeout.toNanos());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        log.info("tag bus subscriber {} removed", subscriber.name());
    }

    private void awaitStopped(Subscriber subscriber, long deadlineNanos) throws InterruptedException {
        if (!subscriber.awaitStopped(deadlineNanos)) {
            log.warn("tag bus subscriber {}: delivery thread tagbus-{} ignored interruption and did not end within {}; "
                    + "abandoning it", subscriber.name(), subscriber.name(), stopTimeout);
        }
        subscriber.reportPendingLosses();
        int undelivered = subscriber.stats().queued();
        if (undelivered > 0) {
            log.warn("tag bus subscriber {}: delivery stopped with {} queued value(s) undelivered; recorded in the"
                    + " loss ledger as subscriber_closed", subscriber.name(), undelivered);
            subscriber.reportUndelivered(undelivered);
        }
    }

    private Object stripeOf(TagValue value) {
        int hash = value.path().hashCode();
        return stripes[(hash ^ (hash >>> 16)) & (STRIPES - 1)];
    }
}
