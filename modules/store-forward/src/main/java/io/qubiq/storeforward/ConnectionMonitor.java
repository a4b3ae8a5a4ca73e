package io.qubiq.storeforward;

import io.qubiq.core.health.ConnectionState;
import io.qubiq.core.health.ConnectionStatus;
import io.qubiq.core.lifecycle.Component;
import io.qubiq.core.lifecycle.Periodic;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Probes every registered connection on its interval and keeps its verdict: UP, DOWN or UNKNOWN,
 * since when, and the last error seen (kept after recovery, for the console). A forwarder reads the
 * verdict through the {@link Liveness} it was given at registration: DOWN gates it, UNKNOWN counts
 * as UP (DESIGN.md rule 7). The first probe runs at start; until it answers a connection is UNKNOWN.
 *
 * <p>A probe must not throw (the {@code Sink.probe()} contract); if one does, or answers null, the
 * connection is DOWN with that error. A change callback that throws is logged and skipped; neither
 * stops the probing. A probe that hangs delays only its own next probe.
 *
 * <p>Time: the probe interval is the scheduler's fixed delay, which follows the JVM's monotonic clock,
 * so a wall clock stepped back or forward neither stops nor rushes the probes; the injected wall clock
 * only stamps each verdict's "since".
 *
 * <p>Connections come and go while it runs: one {@linkplain #register registered} after start is probed at
 * once and then on its interval; one {@linkplain #unregister unregistered} is probed no more (an outbound
 * connection added or removed live).
 *
 * <p>Threading: probes run on the monitor's scheduler threads; state reads are lock-free and safe
 * from any thread (the targets are a copy-on-write map); change callbacks run on the probing thread and
 * must be quick.
 */
public final class ConnectionMonitor implements Component {

    private static final Logger log = LoggerFactory.getLogger(ConnectionMonitor.class);

    private final Clock clock;
    /** Registration order; replaced whole under this monitor's lock, read without it. */
    private volatile Map<String, Target> targets = Map.of();
    private final Map<String, ScheduledFuture<?>> schedules = new HashMap<>();
    private ScheduledExecutorService scheduler;

    private final class Target implements Liveness {
        final String id;
        final Supplier<ConnectionStatus> probe;
        final Duration interval;
        final List<Runnable> callbacks = new CopyOnWriteArrayList<>();
        volatile ConnectionStatus status;

        Target(String id, Supplier<ConnectionStatus> probe, Duration interval) {
            this.id = id;
            this.probe = probe;
            this.interval = interval;
            this.status = ConnectionStatus.unknown(clock.instant());
        }

        @Override
        public ConnectionState state() {
            return status.state();
        }

        @Override
        public void onChange(Runnable callback) {
            callbacks.add(callback);
        }

        void probeOnce() {
            ConnectionStatus seen;
            try {
                seen = probe.get();
                if (seen == null) {
                    seen = ConnectionStatus.down(clock.instant(), "probe answered nothing (a bug in the probe)");
                }
            } catch (RuntimeException e) {
                seen = ConnectionStatus.down(clock.instant(), "probe failed: " + e);
            }
            if (!record(seen)) {
                return;
            }
            Optional<String> lastError = status.lastError();
            if (seen.state() == ConnectionState.DOWN) {
                log.warn("Connection {} is DOWN: {}", id, lastError.orElse("no reason given"));
            } else {
                log.info("Connection {} is {}", id, seen.state());
            }
            for (Runnable callback : callbacks) {
                try {
                    callback.run();
                } catch (RuntimeException e) {
                    // a listener's bug must neither stop the probing nor keep the other listeners uninformed
                    log.error("A state-change listener of connection {} failed: {}", id, e.toString(), e);
                }
            }
        }

        /**
         * Folds one probe answer into the status; returns whether the state changed. Synchronized so
         * that a scheduled probe and an operator's {@code probeNow} cannot both report one change.
         */
        private synchronized boolean record(ConnectionStatus seen) {
            ConnectionStatus before = status;
            if (seen.state() == before.state()) {
                if (seen.lastError().isPresent() && !seen.lastError().equals(before.lastError())) {
                    status = new ConnectionStatus(before.state(), before.since(), seen.lastError());
                }
                return false;
            }
            Optional<String> lastError = seen.lastError().isPresent() ? seen.lastError() : before.lastError();
            status = new ConnectionStatus(seen.state(), clock.instant(), lastError);
            return true;
        }

        /** The scheduled task: nothing may escape it, or the scheduler would never run it again. */
        void scheduledProbe() {
            try {
                probeOnce();
            } catch (RuntimeException e) {
                log.error("Probing connection {} failed unexpectedly: {}", id, e.toString(), e);
            }
        }
    }

    public ConnectionMonitor(Clock clock) {
        this.clock = clock;
    }

    @Override
    public String name() {
        return "connection-monitor";
    }

    /**
     * Registers a connection; returns the liveness view its forwarder uses. Before {@link #start} it is
     * first probed at start; after, at once.
     */
    public synchronized Liveness register(String id, Supplier<ConnectionStatus> probe, Duration interval) {
        if (targets.containsKey(id)) {
            throw new IllegalArgumentException("connection '" + id + "' is already monitored");
        }
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("probe interval of '" + id + "' must be positive");
        }
        Target target = new Target(id, probe, interval);
        Map<String, Target> next = new LinkedHashMap<>(targets);
        next.put(id, target);
        targets = java.util.Collections.unmodifiableMap(next);
        if (scheduler != null) {
            schedule(target);
        }
        return target;
    }

    /**
     * Probes connection {@code id} no more and forgets its verdict; a probe running now finishes. Nothing
     * when it is not registered.
     */
    public synchronized void unregister(String id) {
        if (!targets.containsKey(id)) {
            return;
        }
        Map<String, Target> next = new LinkedHashMap<>(targets);
        next.remove(id);
        targets = java.util.Collections.unmodifiableMap(next);
        Optional.ofNullable(schedules.remove(id)).ifPresent(future -> future.cancel(false));
    }

    private void schedule(Target target) {
        schedules.put(target.id, scheduler.scheduleWithFixedDelay(Periodic.guarded(target::scheduledProbe,
                        e -> log.error("Probing connection {} failed: {}; it is probed again at the next interval",
                                target.id, e.toString(), e)), 0, target.interval.toMillis(), TimeUnit.MILLISECONDS));
    }

    public Optional<ConnectionStatus> status(String id) {
        Target target = targets.get(id);
        return target == null ? Optional.empty() : Optional.of(target.status);
    }

    /** Every monitored connection, in registration order. */
    public Map<String, ConnectionStatus> statuses() {
        Map<String, ConnectionStatus> all = new LinkedHashMap<>();
        targets.forEach((id, target) -> all.put(id, target.status));
        return all;
    }

    @Override
    public synchronized void start() {
        if (scheduler != null) {
            return;
        }
        AtomicInteger threadNumber = new AtomicInteger();
        scheduler = Executors.newScheduledThreadPool(Math.max(1, Math.min(4, targets.size())), runnable -> {
            Thread thread = new Thread(runnable, "connection-monitor-" + threadNumber.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        for (Target target : targets.values()) {
            schedule(target);
        }
    }

    @Override
    public synchronized void stop() throws InterruptedException {
        if (scheduler != null) {
            scheduler.shutdownNow();
            scheduler.awaitTermination(5, TimeUnit.SECONDS);
            scheduler = null;
            schedules.clear();
        }
    }

    /** Probes one connection now, on the caller's thread (tests, and an operator's "test connection"). */
    public ConnectionStatus probeNow(String id) {
        Target target = targets.get(id);
        if (target == null) {
            throw new IllegalArgumentException("connection '" + id + "' is not monitored");
        }
        target.probeOnce();
        return target.status;
    }

    /** Visible for tests: the registered ids. */
    Map<String, ?> targets() {
        return new ConcurrentHashMap<>(targets);
    }
}
