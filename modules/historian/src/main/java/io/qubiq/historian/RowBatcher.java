package io.qubiq.historian;

import io.qubiq.buffer.BufferIOException;
import io.qubiq.buffer.DiskFull;
import io.qubiq.core.event.DataLoss;
import io.qubiq.core.event.LossReason;
import io.qubiq.core.tag.Custody;
import io.qubiq.core.tag.CustodyReceipt;
import io.qubiq.core.time.Ticker;
import io.qubiq.sink.questdb.QuestDbRow;
import io.qubiq.storeforward.ChannelException;
import io.qubiq.storeforward.ChannelFullException;
import io.qubiq.storeforward.StoreForwardChannel;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Collects rows into batches (of {@code maxRows}, or fewer once the oldest pending row has waited
 * {@code linger}, measured on a monotonic {@link Ticker} so that a wall clock stepped back does not
 * hold a batch for the size of the step) and hands each batch to a writer thread, {@code historian-writer}, which submits
 * it to the historian's channel. So the tag-bus consumer turns the next values into rows while the
 * previous batch is being written and flushed (on the channel's fast path that is a round trip to
 * QuestDB): the two overlap instead of adding up. At most one batch waits for the writer; when it
 * is still busy, handing on the next one waits, and the tag bus's queue takes up the slack as it
 * did when submitting was done in line.
 *
 * <p>A batch the channel does not accept (buffer refused or failed, channel not running, or an
 * {@link Error} out of the submit) is counted and logged, never thrown: the tag-bus consumer must
 * keep running, so the writer must too. Those rows are lost;
 * the ERROR log and {@link #rowsRejected()} say how many, and each such batch is told to the loss
 * ledger ({@link LossSink}, which raises the data-lost alarm): as {@code disk_full} when the disk
 * was full, else as {@code historian_rows_refused}. A batch the channel refused at its limit
 * ({@link ChannelFullException}) or because its buffer met a full disk is not told again: the
 * channel has entered those rows in the ledger itself. Rows are counted as pending from
 * {@link #add} until the channel accepted or refused them.
 *
 * <p><b>Custody.</b> Rows added with the {@link Custody} of the MQTT messages they came from carry it
 * into the batch they join (a tag-bus batch whose rows fill two batches gives each a part, and is
 * released when both parts are); the batch hands it to the channel with {@code submit}, which
 * releases it once the rows are buffered, delivered or refused. A batch lost here (the hand-on
 * interrupted) releases it too: it is a loss, accounted for in the ledger.
 *
 * <p>Threading: {@link #add} (tag-bus consumer) and {@link #flushIfDue} (historian ticker) may run
 * concurrently; batches are handed on under one lock, in the order rows were added, and the one
 * writer submits them in that order. {@link #start}, {@link #flush} and {@link #stop} are called by
 * the historian's lifecycle.
 */
final class RowBatcher {

    /** Where batches go: the channel's {@code submit}. */
    @FunctionalInterface
    interface Submitter {
        void submit(List<QuestDbRow> batch) throws Exception;

        /**
         * Submits with the batch's custody, which must be released exactly once whatever happens; the
         * channel does it when the rows are safe or refused. This default releases it when
         * {@link #submit(List)} returned or threw (for submitters that keep nothing in memory).
         */
        default void submit(List<QuestDbRow> batch, Custody custody) throws Exception {
            try {
                submit(batch);
            } finally {
                custody.release();
            }
        }

        /** The historian's channel, custody included. */
        static Submitter to(StoreForwardChannel<QuestDbRow> channel) {
            return new Submitter() {
                @Override
                public void submit(List<QuestDbRow> batch) throws Exception {
                    channel.submit(batch);
                }

                @Override
                public void submit(List<QuestDbRow> batch, Custody custody) throws Exception {
                    channel.submit(batch, custody);
                }
            };
        }
    }

    /** A batch on its way to the writer, with the custody of the messages its rows came from. */
    private record Batch(List<QuestDbRow> rows, Custody custody) {
    }

    /** Where rows lost here are reported: the gateway's {@code EventPublisher#lost}. */
    @FunctionalInterface
    interface LossSink {
        void lost(DataLoss loss);

        static LossSink none() {
            return loss -> { };
        }
    }

    /** The connection id the historian's channel and its losses go by. */
    static final String CONNECTION = "historian";

    private static final Logger log = LoggerFactory.getLogger(RowBatcher.class);
    private static final Duration LOG_INTERVAL = Duration.ofSeconds(10);
    /** Marks the end of the batches: the writer stops when it takes it. */
    private static final Batch END = new Batch(List.of(), Custody.NONE);

    private final Submitter submitter;
    private final LossSink losses;
    private final Clock clock;
    private final int maxRows;
    private final Duration linger;
    private final Ticker ticker;
    private final Object lock = new Object();
    private final BlockingQueue<Batch> handOff = new ArrayBlockingQueue<>(1);
    /** Rows handed to the writer and not yet submitted or refused; guarded by {@link #written}. */
    private long unwritten;
    private final Object written = new Object();
    private List<QuestDbRow> pending = new ArrayList<>();
    /** The custody parts the pending rows carry; guarded by {@link #lock}. */
    private List<Custody> pendingCustody = new ArrayList<>();
    /** The ticker's reading when the oldest pending row was added. */
    private long oldestPendingNanos;
    /** The ticker's reading at the last rejection logged; guarded by {@link #written}. */
    private long lastLogNanos;
    private boolean loggedOnce;
    private Thread writer;
    /** Rows added and not yet submitted or refused; read without a lock by {@link #pending}. */
    private final AtomicLong unresolved = new AtomicLong();
    final AtomicLong rowsSubmitted = new AtomicLong();
    final AtomicLong rowsRejected = new AtomicLong();
    final AtomicLong submitFailures = new AtomicLong();

    RowBatcher(Submitter submitter, int maxRows, Duration linger, Ticker ticker) {
        this(submitter, maxRows, linger, ticker, LossSink.none(), Clock.systemUTC());
    }

    /** @param losses where rejected batches are reported; {@code clock} stamps those reports */
    RowBatcher(Submitter submitter, int maxRows, Duration linger, Ticker ticker, LossSink losses, Clock clock) {
        this.losses = losses;
        this.clock = clock;
        this.submitter = submitter;
        this.maxRows = maxRows;
        this.linger = linger;
        this.ticker = ticker;
    }

    /** Starts the writer thread. */
    synchronized void start() {
        if (writer != null) {
            return;
        }
        writer = new Thread(this::write, "historian-writer");
        writer.setDaemon(true);
        writer.start();
    }

    void add(List<QuestDbRow> rows) {
        add(rows, Custody.NONE);
    }

    /**
     * Adds rows that carry {@code custody} (see the class doc); released at once when there are none
     * (every value was filtered away by a storage rule: deliberate, nothing to keep).
     */
    void add(List<QuestDbRow> rows, Custody custody) {
        if (rows.isEmpty()) {
            custody.release();
            return;
        }
        unresolved.addAndGet(rows.size());
        // one part per batch the rows land in; the custody is released once every part is
        CustodyReceipt parts = custody == Custody.NONE ? null : CustodyReceipt.open(custody::release);
        synchronized (lock) {
            boolean carried = false;
            for (QuestDbRow row : rows) {
                if (pending.isEmpty()) {
                    oldestPendingNanos = ticker.nanos();
                }
                pending.add(row);
                if (parts != null && !carried) {
                    pendingCustody.add(parts.share());
                    carried = true;
                }
                if (pending.size() >= maxRows) {
                    handOnLocked();
                    carried = false;
                }
            }
            if (linger.isZero()) {
                handOnLocked();
            }
        }
        if (parts != null) {
            parts.published();
        }
    }

    /**
     * Hands on the pending rows at once when some of them carry custody: a broker waits for their
     * acknowledgement, and brokers send only so many unacknowledged messages at a time (mosquitto's
     * {@code max_inflight_messages}, HiveMQ's in-flight window), so lingering would cap the
     * connection's rate at that window per linger. Rows without custody keep lingering.
     */
    void handOnHeld() {
        synchronized (lock) {
            if (!pendingCustody.isEmpty()) {
                handOnLocked();
            }
        }
    }

    void flushIfDue() {
        synchronized (lock) {
            if (!pending.isEmpty() && ticker.nanos() - oldestPendingNanos >= linger.toNanos()) {
                handOnLocked();
            }
        }
    }

    /** Hands on the pending rows and waits until the writer has submitted (or refused) every row. */
    void flush() throws InterruptedException {
        synchronized (lock) {
            handOnLocked();
        }
        synchronized (written) {
            while (unwritten > 0) {
                written.wait();
            }
        }
    }

    /** {@link #flush}es, then ends the writer thread. */
    synchronized void stop() throws InterruptedException {
        if (writer == null) {
            return;
        }
        flush();
        handOff.put(END);
        writer.join();
        writer = null;
    }

    /** Rows added and not yet submitted or refused. Never waits for the writer. */
    int pending() {
        return (int) unresolved.get();
    }

    long rowsRejected() {
        return rowsRejected.get();
    }

    private void handOnLocked() {
        if (pending.isEmpty()) {
            return;
        }
        List<QuestDbRow> rows = pending;
        pending = new ArrayList<>(Math.min(maxRows, 1024));
        Batch batch = new Batch(rows, Custody.allOf(pendingCustody));
        pendingCustody = new ArrayList<>();
        synchronized (written) {
            unwritten += rows.size();
        }
        try {
            handOff.put(batch);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            resolved(rows.size());
            rejected(rows, e);
            batch.custody().release(); // lost, and in the ledger
        }
    }

    /** The writer thread: submits batches in order until it takes {@link #END}. */
    private void write() {
        while (true) {
            Batch taken;
            try {
                taken = handOff.take();
            } catch (InterruptedException e) {
                return; // only the historian interrupts it, and only after stop() gave up waiting
            }
            if (taken == END) {
                return;
            }
            List<QuestDbRow> batch = taken.rows();
            try {
                submitter.submit(batch, taken.custody()); // released by the channel, on every path
                rowsSubmitted.addAndGet(batch.size());
            } catch (Exception e) {
                rejected(batch, e);
            } catch (Error e) {
                // the batch is lost (counted, in the ledger) but the writer goes on: if it ended here,
                // handing on the next batch would block the tag bus's historian thread for good
                log.error("Historian writer: submitting {} row(s) threw {}", batch.size(), e.toString(), e);
                rejected(batch, e);
            } finally {
                resolved(batch.size());
            }
        }
    }

    /** The channel enters in the ledger what it refuses at its limit and what a full disk kept out. */
    private static boolean toldByTheChannel(Throwable e) {
        return e instanceof ChannelFullException
                || e instanceof ChannelException && e.getCause() instanceof BufferIOException io && io.diskFull();
    }

    private void resolved(int rows) {
        unresolved.addAndGet(-rows);
        synchronized (written) {
            unwritten -= rows;
            written.notifyAll();
        }
    }

    private void rejected(List<QuestDbRow> batch, Throwable e) {
        submitFailures.incrementAndGet();
        long total = rowsRejected.addAndGet(batch.size());
        if (!toldByTheChannel(e)) {
            boolean diskFull = DiskFull.causedBy(e);
            losses.lost(DataLoss.of(clock.instant(), CONNECTION, CONNECTION,
                    diskFull ? LossReason.DISK_FULL : LossReason.HISTORIAN_ROWS_REFUSED, batch.size(), 0,
                    "historian rows its store-and-forward channel did not accept: " + e.getMessage()));
        }
        long now = ticker.nanos();
        synchronized (written) {
            if (loggedOnce && now - lastLogNanos <= LOG_INTERVAL.toNanos()) {
                return;
            }
            loggedOnce = true;
            lastLogNanos = now;
        }
        log.error("Historian lost {} row(s): its store-and-forward channel did not accept them ({}); {} row(s)"
                + " lost so far", batch.size(), e.getMessage(), total);
    }
}
