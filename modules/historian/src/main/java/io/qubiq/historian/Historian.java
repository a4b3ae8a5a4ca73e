package io.qubiq.historian;

import io.qubiq.core.lifecycle.Component;
import io.qubiq.core.lifecycle.Periodic;
import io.qubiq.core.tag.Custody;
import io.qubiq.core.tag.TagValue;
import io.qubiq.core.time.Ticker;
import io.qubiq.questdb.exec.ExecClient;
import io.qubiq.questdb.exec.SqlException;
import io.qubiq.sink.questdb.QuestDbRow;
import io.qubiq.storeforward.StoreForwardChannel;
import io.qubiq.tagbus.CustodialConsumer;
import io.qubiq.tagbus.OverflowPolicy;
import io.qubiq.tagbus.Subscription;
import io.qubiq.tagbus.SubscriptionSpec;
import io.qubiq.tagbus.TagBus;
import io.qubiq.tagbus.TagFilter;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stores tag history in QuestDB. It subscribes to the tag bus (a bounded queue named
 * {@code historian}; when full, the oldest value is dropped and counted), passes each value
 * through the {@link StorageFilter}, which keeps each stored sample in the {@link LiveTail}, and hands
 * its row to the historian's store-and-forward channel in batches ({@link RowBatcher}). A ticker thread
 * releases held-back samples and heartbeats and hands on batches that lingered long enough.
 *
 * <p>Time: every interval (minimum interval, heartbeat, linger) is measured on the injected monotonic
 * {@link Ticker}; the wall clock only stamps values (a heartbeat's time). A wall clock stepped back or
 * forward therefore neither stops the historian nor makes it store a burst of heartbeats.
 *
 * <p>The channel is injected (see {@link HistorianChannels}): start it before the historian and
 * stop it after. At start the historian creates its tables over {@code /exec}; if QuestDB is not
 * reachable then, the channel's sink creates them before its first write.
 *
 * <p>Threading: the tag bus's delivery thread {@code tagbus-historian} and the ticker
 * {@code historian-ticker} turn values into rows; the batcher's {@code historian-writer} submits
 * them to the channel, so the next rows are made while a batch is written; {@link #status} is safe
 * from any thread. Start and stop are called by the lifecycle thread.
 */
public final class Historian implements Component {

    public static final String SUBSCRIBER = "historian";
    /** How long a stop waits for the values queued on the tag bus to become rows. */
    static final java.time.Duration DRAIN_TIMEOUT = java.time.Duration.ofSeconds(5);
    private static final Logger log = LoggerFactory.getLogger(Historian.class);

    private volatile HistorianConfig config;
    private final TagBus bus;
    private final ExecClient exec;
    private final HistorySchema schema;
    private final HistoryRows rows;
    private final StorageFilter filter;
    private final LiveTail liveTail;
    private final RowBatcher batcher;
    private final Ticker ticker;
    private final AtomicLong received = new AtomicLong();
    private final AtomicLong stored = new AtomicLong();
    private final AtomicLong filtered = new AtomicLong();
    private Subscription subscription;
    private ScheduledExecutorService tickLoop;

    /**
     * A historian whose storage rules and batches measure their intervals on {@code ticker} (monotonic)
     * and stamp heartbeats with {@code clock} (the wall clock).
     *
     * @param gateway this gateway's identity, written to every row (see {@link HistoryRows})
     */
    public Historian(HistorianConfig config, String gateway, TagBus bus, StoreForwardChannel<QuestDbRow> channel,
                     ExecClient exec, Clock clock, Ticker ticker) {
        this(config, gateway, bus, channel, exec, clock, ticker, io.qubiq.core.event.EventPublisher.none());
    }

    /**
     * As above, with {@code events} told of every batch of rows the channel did not accept and did not
     * enter in the loss ledger itself (see {@link RowBatcher}).
     */
    public Historian(HistorianConfig config, String gateway, TagBus bus, StoreForwardChannel<QuestDbRow> channel,
                     ExecClient exec, Clock clock, Ticker ticker, io.qubiq.core.event.EventPublisher events) {
        Objects.requireNonNull(events, "events");
        this.config = Objects.requireNonNull(config, "config");
        this.bus = Objects.requireNonNull(bus, "bus");
        this.exec = Objects.requireNonNull(exec, "exec");
        this.ticker = Objects.requireNonNull(ticker, "ticker");
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(channel, "channel");
        this.schema = HistorySchema.of(config);
        this.rows = new HistoryRows(schema, gateway);
        this.liveTail = new LiveTail(config.liveTailSamplesPerTag(), config.liveTailMaxSamples());
        this.filter = StorageFilter.of(config, clock, ticker, liveTail);
        this.batcher = new RowBatcher(RowBatcher.Submitter.to(channel), config.batchMaxRows(),
                Duration.ofMillis(config.lingerMs()),
                ticker, events::lost, clock);
    }

    /** A historian on the JVM's monotonic clock ({@link Ticker#system()}) for its intervals. */
    public Historian(HistorianConfig config, String gateway, TagBus bus, StoreForwardChannel<QuestDbRow> channel,
                     ExecClient exec, Clock clock) {
        this(config, gateway, bus, channel, exec, clock, Ticker.system());
    }

    @Override
    public String name() {
        return "historian";
    }

    @Override
    public synchronized void start() {
        if (subscription != null) {
            return;
        }
        try {
            schema.create(exec);
            log.info("Historian tables ready: {} (rows of gateway \"{}\")", schema.tables(), rows.gateway());
        } catch (SqlException e) {
            log.warn("Historian could not create its tables now ({}); the channel creates them before its first"
                    + " write", e.getMessage());
        }
        tickLoop = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "historian-ticker");
            thread.setDaemon(true);
            return thread;
        });
        long tickMs = Math.max(10, Math.min(250, config.lingerMs() == 0 ? 250 : config.lingerMs()));
        batcher.start();
        tickLoop.scheduleWithFixedDelay(Periodic.guarded(this::tick, e -> log.error("Historian ticker failed: {};"
                + " it ticks again at the next interval", e.toString(), e)), tickMs, tickMs, TimeUnit.MILLISECONDS);
        subscription = bus.subscribe(new SubscriptionSpec(SUBSCRIBER, config.queueCapacityValues(),
                OverflowPolicy.DROP_OLDEST, config.batchMaxRows(), TagFilter.all(), (CustodialConsumer) this::accept));
    }

    /**
     * Lets the subscriber handle what is queued for it (at most {@link #DRAIN_TIMEOUT}; the device
     * connections stopped before, so nothing new comes), unsubscribes (anything left is recorded in the loss
     * ledger by the tag bus), stops the ticker thread, hands the last pending rows to the channel and ends
     * the writer.
     */
    @Override
    public synchronized void stop() throws InterruptedException {
        if (subscription == null) {
            return;
        }
        try {
            if (!subscription.drain(DRAIN_TIMEOUT)) {
                log.warn("The historian did not take every queued value within {}; the rest is recorded as lost",
                        DRAIN_TIMEOUT);
            }
        } finally {
            subscription.close();
        }
        tickLoop.shutdown();
        if (!tickLoop.awaitTermination(5, TimeUnit.SECONDS)) {
            tickLoop.shutdownNow();
        }
        batcher.stop();
        subscription = null;
    }

    /** The tag-bus consumer: one batch of values. Never throws for a channel failure. */
    void accept(List<TagValue> values) {
        accept(values, Custody.NONE);
    }

    /**
     * The tag-bus consumer with the batch's custody (see {@link CustodialConsumer}): it goes with the
     * rows to the channel, which releases it once they are buffered, delivered or refused. Values the
     * storage rules discard or hold back (deadband, minimum interval) are deliberate filtering: their
     * share is released with the batch's rows, or at once when no value of the batch became a row.
     * Rows with custody are handed on without lingering once the queue is drained: the broker's
     * in-flight window is waiting for them.
     */
    void accept(List<TagValue> values, Custody custody) {
        received.addAndGet(values.size());
        List<HistorySample> samples = new ArrayList<>(values.size());
        filter.offerAll(values, ticker.nanos(), samples); // one batch is one moment for the rules' intervals
        stored.addAndGet(samples.size());
        filtered.addAndGet(values.size() - samples.size());
        batcher.add(toRows(samples), custody);
        if (custody != Custody.NONE && caughtUp()) {
            batcher.handOnHeld(); // a broker waits: do not linger (see RowBatcher#handOnHeld)
        }
    }

    /** True when no value waits in the historian's tag-bus queue: no bigger batch is coming now. */
    private boolean caughtUp() {
        Subscription current = subscription;
        return current == null || current.stats().queued() == 0;
    }

    /** One turn of the ticker thread; package-private so that tests can turn it by hand. */
    void tick() {
        try {
            List<HistorySample> due = filter.due();
            if (!due.isEmpty()) {
                stored.addAndGet(due.size());
                batcher.add(toRows(due));
            }
            batcher.flushIfDue();
        } catch (RuntimeException e) {
            log.error("Historian ticker failed: {}", e.toString(), e);
        }
    }

    /** The rows of samples the filter stored (and kept in the live tail). */
    private List<QuestDbRow> toRows(List<HistorySample> samples) {
        List<QuestDbRow> out = new ArrayList<>(samples.size());
        for (HistorySample sample : samples) {
            out.add(rows.row(sample));
        }
        return out;
    }

    public HistorySchema schema() {
        return schema;
    }

    /** How this gateway's samples become rows. */
    public HistoryRows rows() {
        return rows;
    }

    public LiveTail liveTail() {
        return liveTail;
    }

    public HistorianConfig config() {
        return config;
    }

    /**
     * Stores by {@code next}'s storage rules from now on, while values flow: each tag keeps its last stored
     * sample and what it holds back ({@link StorageFilter#replaceRules}).
     *
     * @throws IllegalArgumentException {@code next} differs in more than its rules (tables, batching,
     *     queue, live tail, channel: those need a restart)
     */
    public void applyRules(HistorianConfig next) {
        if (!next.withRules(config.defaultRule(), config.rules()).equals(config)) {
            throw new IllegalArgumentException("only the storage rules (default_rule, rules) change while the"
                    + " historian runs");
        }
        filter.replaceRules(next.defaultRule(), next.rules());
        config = next;
    }

    public ExecClient exec() {
        return exec;
    }

    public HistorianStatus status() {
        Subscription current = subscription;
        long dropped = current == null ? 0 : current.stats().dropped();
        return new HistorianStatus(received.get(), stored.get(), filtered.get(), batcher.rowsSubmitted.get(),
                batcher.pending(), batcher.rowsRejected(), dropped, liveTail.tags(), liveTail.capacityAllocated(),
                config.liveTailMaxSamples());
    }
}
