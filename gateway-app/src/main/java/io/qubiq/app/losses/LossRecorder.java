package io.qubiq.app.losses;

import io.qubiq.app.metrics.LossCounters;
import io.qubiq.core.event.DataLoss;
import io.qubiq.core.event.EventPublisher;
import io.qubiq.core.lifecycle.Component;
import io.qubiq.core.lifecycle.Periodic;
import io.qubiq.losses.LossLedger;
import io.qubiq.losses.LossQuery;
import io.qubiq.losses.LossReport;
import io.qubiq.losses.LossesConfig;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where every {@link DataLoss} of the gateway goes (component {@code loss-ledger}): the log
 * ({@code qubiq.losses}, summed per source and reason at most every 10 s), the Prometheus counters at once, the {@link LossLedger} in {@code <data>/losses/} (flushed once a second by the
 * thread {@code loss-ledger} and at stop), and a {@link io.qubiq.core.event.DataLostAlarm} for a
 * loss nobody asked for. Losses reported before {@link #start} (a channel recovering at
 * construction) are kept, up to {@value #EARLY_LIMIT}, and recorded when the ledger opens.
 *
 * <p>Started right after the console and stopped after every other component, so the losses of
 * start-up and shutdown are recorded too.
 *
 * <p>Threading: {@link #record} and {@link #query} are safe from any thread and never wait for the
 * disk; the flush thread owns the ledger's writes and the alarms' timing.
 */
public final class LossRecorder implements Component {

    static final int EARLY_LIMIT = 10_000;
    static final Duration QUIET_PERIOD = Duration.ofMinutes(15);
    static final Duration RERAISE_INTERVAL = Duration.ofMinutes(1);
    static final Duration LOG_INTERVAL = Duration.ofSeconds(10);
    private static final Logger log = LoggerFactory.getLogger(LossRecorder.class);

    private final LossesConfig config;
    private final Path dir;
    private final LossCounters counters;
    private final LossAlarms alarms;
    private final LossLog lossLog = new LossLog(LOG_INTERVAL, System::nanoTime);
    private final List<DataLoss> early = new ArrayList<>();
    private long earlyOverflow;
    private volatile LossLedger ledger;
    private ScheduledExecutorService flusher;

    public LossRecorder(LossesConfig config, Path dir, LossCounters counters, EventPublisher alarmSink, Clock clock) {
        this(config, dir, counters, alarmSink, clock, QUIET_PERIOD);
    }

    /** @param quietPeriod how long without a loss before a connection's data-lost alarm clears */
    public LossRecorder(LossesConfig config, Path dir, LossCounters counters, EventPublisher alarmSink, Clock clock,
                        Duration quietPeriod) {
        this.config = config;
        this.dir = dir;
        this.counters = counters;
        this.alarms = new LossAlarms(alarmSink, clock, System::nanoTime, quietPeriod, RERAISE_INTERVAL);
    }

    @Override
    public String name() {
        return "loss-ledger";
    }

    /** Logs, counts, ledgers and alarms one loss; never waits for the disk. */
    public void record(DataLoss loss) {
        lossLog.note(loss);
        counters.count(loss);
        alarms.note(loss);
        LossLedger open = ledger;
        if (open == null) {
            synchronized (early) {
                open = ledger;
                if (open == null) {
                    if (early.size() < EARLY_LIMIT) {
                        early.add(loss);
                    } else {
                        earlyOverflow++;
                    }
                    return;
                }
            }
        }
        open.record(loss);
    }

    /**
     * Records one loss and returns once it is on disk in the ledger (fsynced): for an operator's action
     * that deletes data only after its loss is durable (an orphan discarded).
     *
     * @throws java.io.IOException the ledger is not open or could not be written; the loss stays pending
     *     and is written at a later flush
     */
    public void recordDurably(DataLoss loss) throws java.io.IOException {
        LossLedger open = ledger;
        if (open == null) {
            throw new java.io.IOException("the loss ledger is not open yet");
        }
        record(loss);
        if (!open.flushAll()) {
            throw new java.io.IOException("the loss ledger in " + dir + " could not be written (see the log)");
        }
    }

    /** Logs one loss on {@code qubiq.losses}, for reports that come before a recorder exists. */
    public static void log(DataLoss loss) {
        LossLog.line(loss);
    }

    @Override
    public void start() throws Exception {
        LossLedger opened = LossLedger.open(dir, config.maxBytes());
        synchronized (early) {
            early.forEach(opened::record);
            if (earlyOverflow > 0) {
                log.error("{} loss reports came before the loss ledger opened, more than the {} it keeps; they are in"
                        + " the log and the metrics only", earlyOverflow, EARLY_LIMIT);
            }
            early.clear();
            ledger = opened;
        }
        flusher = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "loss-ledger");
            thread.setDaemon(true);
            return thread;
        });
        flusher.scheduleWithFixedDelay(Periodic.guarded(this::tick, e -> log.error("Loss ledger flush failed: {}; it runs again in 1 s", e.toString(), e)), 1, 1, TimeUnit.SECONDS);
        log.info("Loss ledger open in {} ({} bytes on disk, bound {} bytes)", dir, opened.bytesOnDisk(),
                config.maxBytes());
    }

    private void tick() {
        try {
            ledger.flush();
            alarms.tick();
            lossLog.tick();
        } catch (RuntimeException e) {
            log.error("Loss ledger flush failed: {}", e.toString(), e);
        }
    }

    /** What the ledger holds that matches; empty before the ledger opened. */
    public Optional<LossReport> query(LossQuery query) {
        LossLedger open = ledger;
        return open == null ? Optional.empty() : Optional.of(open.query(query));
    }

    /** Writes what is pending now (for tests and tools; the flush thread does it once a second). */
    public void flush() {
        LossLedger open = ledger;
        if (open != null) {
            open.flush();
            alarms.tick();
        }
    }

    @Override
    public void stop() throws InterruptedException {
        if (flusher != null) {
            flusher.shutdown();
            flusher.awaitTermination(5, TimeUnit.SECONDS);
        }
        lossLog.tick();
        LossLedger open = ledger;
        if (open != null) {
            open.close();
        }
    }
}
