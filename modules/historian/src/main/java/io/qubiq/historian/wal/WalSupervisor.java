package io.qubiq.historian.wal;

import io.qubiq.core.event.AuditAction;
import io.qubiq.core.event.AuditEvent;
import io.qubiq.core.event.EventPublisher;
import io.qubiq.core.event.WalSuspendedAlarm;
import io.qubiq.core.lifecycle.Component;
import io.qubiq.core.lifecycle.Periodic;
import io.qubiq.core.time.Ticker;
import io.qubiq.questdb.exec.ExecClient;
import io.qubiq.questdb.exec.SqlException;
import io.qubiq.questdb.exec.SqlText;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches the historian's QuestDB tables for a suspended write-ahead-log apply and acts on it.
 * Every {@code poll_interval_ms} it reads {@code wal_tables()}; for each watched table:
 * <ul>
 *   <li><b>Suspended, recoverable cause</b> ({@link SuspensionCause}: disk full, too many open
 *       files, out of memory or mmap areas): after {@code resume_backoff_initial_ms} it runs
 *       {@code ALTER TABLE t RESUME WAL}, which retries the failed transaction; if the table
 *       suspends again at the same {@code writerTxn}, it waits twice as long (up to
 *       {@code resume_backoff_max_ms}) before the next resume.
 *   <li><b>Poison</b>: a cause that is not recoverable, or a table that suspended again at the
 *       same transaction after {@code resume_attempts_per_txn} automatic resumes. One
 *       {@link WalSuspendedAlarm} is raised, and the table is no longer resumed automatically: an
 *       operator investigates and calls {@link #resumeFromNextTransaction}, which skips the failed
 *       transaction ({@code RESUME WAL FROM TXN writerTxn+2}, or {@code sequencerTxn+1} when nothing
 *       beyond it was committed) and is audited. The alarm clears when
 *       the table applies again.
 *   <li><b>Lagging</b>: a table whose writer trails its sequencer by more than
 *       {@code writer_lag_threshold_txn} is flagged in {@link #status} and logged.
 * </ul>
 * A table whose {@code writerTxn} advances starts its resume count afresh.
 *
 * <p>Time: the resume backoff is measured on the monotonic {@link Ticker}, so a wall clock stepped back
 * does not put off the next resume by the size of the step; the wall clock stamps alarms, audit
 * entries and the last poll time.
 *
 * <p>Threading: polls run on the daemon thread {@code wal-supervisor}; {@link #pollOnce},
 * {@link #resumeFromNextTransaction} and {@link #status} may be called from any thread and are
 * serialized on the supervisor.
 */
public final class WalSupervisor implements Component {

    private static final Logger log = LoggerFactory.getLogger(WalSupervisor.class);

    private final ExecClient exec;
    private final WalSupervisorConfig config;
    private final EventPublisher events;
    private final Clock clock;
    private final Ticker ticker;
    private final Map<String, Watch> watches = new LinkedHashMap<>();
    private final AtomicLong polls = new AtomicLong();
    private ScheduledExecutorService scheduler;

    /** What the supervisor remembers of one table between polls. */
    private static final class Watch {
        final String table;
        WalTableRow row;
        Instant lastPollAt;
        long countedAtTxn = -1;
        int autoResumes;
        long autoResumesTotal;
        /** The ticker's reading when the table was first seen suspended; null while it applies. */
        Long suspendedSinceNanos;
        /** The ticker's reading at the last automatic resume. */
        long lastResumeNanos;
        boolean poisoned;
        boolean alarmActive;
        boolean lagging;

        Watch(String table) {
            this.table = table;
        }
    }

    /** A supervisor whose resume backoff runs on the JVM's monotonic clock ({@link Ticker#system()}). */
    public WalSupervisor(ExecClient exec, List<String> tables, WalSupervisorConfig config, EventPublisher events,
                         Clock clock) {
        this(exec, tables, config, events, clock, Ticker.system());
    }

    /**
     * @param tables the QuestDB tables to watch (the historian's); only these can be resumed here
     * @param clock  the wall clock: stamps alarms, audit entries and poll times
     * @param ticker the monotonic clock the resume backoff is measured on
     */
    public WalSupervisor(ExecClient exec, List<String> tables, WalSupervisorConfig config, EventPublisher events,
                         Clock clock, Ticker ticker) {
        this.exec = Objects.requireNonNull(exec, "exec");
        this.config = Objects.requireNonNull(config, "config");
        this.events = Objects.requireNonNull(events, "events");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.ticker = Objects.requireNonNull(ticker, "ticker");
        for (String table : tables) {
            watches.put(SqlText.identifier(table), new Watch(table));
        }
    }

    @Override
    public String name() {
        return "wal-supervisor";
    }

    @Override
    public synchronized void start() {
        if (scheduler != null || !config.enabled()) {
            return;
        }
        scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "wal-supervisor");
            thread.setDaemon(true);
            return thread;
        });
        scheduler.scheduleWithFixedDelay(Periodic.guarded(this::scheduledPoll, e -> log.error("WAL supervisor poll failed: {}; it polls again at the next interval", e.toString(), e)), 0, config.pollIntervalMs(),
                TimeUnit.MILLISECONDS);
        log.info("WAL supervisor watching {} every {} ms", watches.keySet(), config.pollIntervalMs());
    }

    @Override
    public void stop() throws InterruptedException {
        ScheduledExecutorService current;
        synchronized (this) {
            current = scheduler;
            scheduler = null;
        }
        if (current != null) {
            current.shutdownNow();
            current.awaitTermination(5, TimeUnit.SECONDS);
        }
    }

    /** Completed polls so far. */
    public long polls() {
        return polls.get();
    }

    private void scheduledPoll() {
        try {
            pollOnce();
        } catch (SqlException e) {
            if (e.unreachable()) {
                log.debug("WAL supervisor cannot reach QuestDB: {}", e.getMessage());
            } else {
                log.warn("WAL supervisor's query failed: {}", e.getMessage());
            }
        } catch (RuntimeException e) {
            log.error("WAL supervisor poll failed unexpectedly: {}", e.toString(), e);
        }
    }

    /**
     * Reads {@code wal_tables()} once and acts on every watched table.
     *
     * @throws SqlException QuestDB unreachable or the query refused
     */
    public synchronized void pollOnce() throws SqlException {
        Map<String, WalTableRow> rows = WalTableRow.byName(exec.exec(WalTableRow.QUERY));
        Instant now = clock.instant();
        long nowNanos = ticker.nanos();
        for (Watch watch : watches.values()) {
            watch.lastPollAt = now;
            watch.row = rows.get(watch.table);
            if (watch.row != null) {
                inspect(watch, watch.row, now, nowNanos);
            }
        }
        polls.incrementAndGet();
    }

    private void inspect(Watch watch, WalTableRow row, Instant now, long nowNanos) throws SqlException {
        if (row.writerTxn() != watch.countedAtTxn) {
            watch.countedAtTxn = row.writerTxn();
            watch.autoResumes = 0;
        }
        checkLag(watch, row);
        if (!row.suspended()) {
            watch.suspendedSinceNanos = null;
            if (watch.alarmActive) {
                watch.alarmActive = false;
                watch.poisoned = false;
                events.alarm(alarm(row, false, now, ""));
                log.info("QuestDB table {} applies its WAL again at transaction {}", row.name(), row.writerTxn());
            }
            return;
        }
        if (watch.suspendedSinceNanos == null) {
            watch.suspendedSinceNanos = nowNanos;
            log.warn("QuestDB table {} is suspended at transaction {} of {}: {} {}", row.name(), row.writerTxn(),
                    row.sequencerTxn(), row.errorTag(), row.errorMessage());
        }
        if (watch.poisoned) {
            return;
        }
        SuspensionCause cause = SuspensionCause.classify(row.errorTag(), row.errorMessage());
        if (!cause.recoverable()) {
            poison(watch, row, now, "The cause is not one that passes on its own, so resuming would fail again.");
            return;
        }
        if (watch.autoResumes >= config.resumeAttemptsPerTxn()) {
            poison(watch, row, now, "It suspended again at the same transaction after " + watch.autoResumes
                    + " automatic resume(s): a poison transaction.");
            return;
        }
        long waitedNanos = nowNanos - (watch.autoResumes == 0 ? watch.suspendedSinceNanos : watch.lastResumeNanos);
        Duration wait = watch.autoResumes == 0 ? Duration.ofMillis(config.resumeBackoffInitialMs())
                : backoff(watch.autoResumes);
        if (waitedNanos < wait.toNanos()) {
            return;
        }
        exec.exec("ALTER TABLE " + SqlText.identifier(row.name()) + " RESUME WAL");
        watch.autoResumes++;
        watch.autoResumesTotal++;
        watch.lastResumeNanos = nowNanos;
        watch.suspendedSinceNanos = null;
        log.warn("Resumed QuestDB table {} at transaction {} (cause {}, automatic resume {} of {})", row.name(),
                row.writerTxn(), cause, watch.autoResumes, config.resumeAttemptsPerTxn());
    }

    private Duration backoff(int attempts) {
        long ms = config.resumeBackoffInitialMs();
        for (int i = 0; i < attempts && ms < config.resumeBackoffMaxMs(); i++) {
            ms *= 2;
        }
        return Duration.ofMillis(Math.min(ms, config.resumeBackoffMaxMs()));
    }

    private void poison(Watch watch, WalTableRow row, Instant now, String reason) {
        watch.poisoned = true;
        if (!watch.alarmActive) {
            watch.alarmActive = true;
            events.alarm(alarm(row, true, now, reason));
            log.error("QuestDB table {} stays suspended at transaction {} ({} {}). {} An operator must resume it"
                    + " past transaction {}.", row.name(), row.writerTxn(), row.errorTag(), row.errorMessage(),
                    reason, row.writerTxn() + 1);
        }
    }

    private void checkLag(Watch watch, WalTableRow row) {
        boolean lagging = row.sequencerTxn() - row.writerTxn() > config.writerLagThresholdTxn();
        if (lagging && !watch.lagging) {
            log.warn("QuestDB table {} applies its WAL slowly: {} transaction(s) committed but not applied",
                    row.name(), row.sequencerTxn() - row.writerTxn());
        } else if (!lagging && watch.lagging) {
            log.info("QuestDB table {} caught up with its WAL", row.name());
        }
        watch.lagging = lagging;
    }

    private WalSuspendedAlarm alarm(WalTableRow row, boolean active, Instant now, String reason) {
        return new WalSuspendedAlarm(row.name(), active, now, row.writerTxn(), row.sequencerTxn(), row.errorTag(),
                row.errorMessage(), reason);
    }

    /**
     * The operator action for a poisoned table: resumes it past the transaction it could not apply
     * ({@code ALTER TABLE t RESUME WAL FROM TXN writerTxn+2}); the skipped transaction's rows are
     * lost. Audited as {@link AuditAction#WAL_RESUME_SKIP}, also when there was nothing to do or it
     * failed.
     *
     * @throws IllegalArgumentException when {@code table} is not one of the watched tables
     * @throws SqlException             QuestDB unreachable or the statement refused
     */
    public synchronized WalTableStatus resumeFromNextTransaction(String table, String user) throws SqlException {
        return resumeFromNextTransaction(table, user, "");
    }

    /** As {@link #resumeFromNextTransaction(String, String)}, journaling the operator's remote address too. */
    public synchronized WalTableStatus resumeFromNextTransaction(String table, String user, String remote)
            throws SqlException {
        Watch watch = watches.get(table);
        if (watch == null) {
            throw new IllegalArgumentException("\"" + table + "\" is not a historian table; watched: "
                    + watches.keySet());
        }
        String target = "historian/wal/" + table;
        WalTableRow row = WalTableRow.byName(exec.exec(WalTableRow.QUERY)).get(table);
        if (row == null || !row.suspended()) {
            audit(user, remote, target, row == null ? "table not found" : "not suspended; nothing skipped", row, Map.of());
            return status(watch);
        }
        // past the failed transaction, but never beyond the next one the sequencer will issue
        long from = Math.min(row.writerTxn() + 2, row.sequencerTxn() + 1);
        boolean skips = from == row.writerTxn() + 2;
        try {
            exec.exec("ALTER TABLE " + SqlText.identifier(table) + " RESUME WAL FROM TXN " + from);
        } catch (SqlException e) {
            audit(user, remote, target, "failed: " + e.getMessage(), row, Map.of());
            throw e;
        }
        audit(user, remote, target, "resumed from transaction " + from, row,
                skips ? Map.of("skipped_txn", Long.toString(row.writerTxn() + 1)) : Map.of());
        log.warn("User {} resumed QuestDB table {} from transaction {}{}", user, table, from,
                skips ? ", skipping transaction " + (row.writerTxn() + 1) : " (no transaction to skip)");
        watch.poisoned = false;
        watch.autoResumes = 0;
        watch.suspendedSinceNanos = null;
        pollOnce();
        return status(watch);
    }

    private void audit(String user, String remote, String target, String outcome, WalTableRow row,
                       Map<String, String> extra) {
        Map<String, String> details = new LinkedHashMap<>();
        if (!remote.isEmpty()) {
            details.put(AuditAction.DETAIL_FROM, remote);
        }
        details.putAll(extra);
        if (row != null) {
            details.put("writer_txn", Long.toString(row.writerTxn()));
            details.put("sequencer_txn", Long.toString(row.sequencerTxn()));
            details.put("error_tag", row.errorTag());
            details.put("error_message", row.errorMessage());
        }
        events.audit(new AuditEvent(clock.instant(), user, AuditAction.WAL_RESUME_SKIP, target, outcome, details));
    }

    /** One status per watched table, in the order given. */
    public synchronized List<WalTableStatus> status() {
        List<WalTableStatus> out = new ArrayList<>();
        for (Watch watch : watches.values()) {
            out.add(status(watch));
        }
        return out;
    }

    private WalTableStatus status(Watch watch) {
        WalTableRow row = watch.row;
        if (row == null) {
            return new WalTableStatus(watch.table, false, false, 0, 0, "", "", Optional.empty(), watch.autoResumes,
                    watch.autoResumesTotal, watch.poisoned, false, Optional.ofNullable(watch.lastPollAt));
        }
        Optional<SuspensionCause> cause = row.suspended()
                ? Optional.of(SuspensionCause.classify(row.errorTag(), row.errorMessage())) : Optional.empty();
        return new WalTableStatus(watch.table, true, row.suspended(), row.writerTxn(), row.sequencerTxn(),
                row.errorTag(), row.errorMessage(), cause, watch.autoResumes, watch.autoResumesTotal, watch.poisoned, watch.lagging,
                Optional.ofNullable(watch.lastPollAt));
    }
}
