package io.qubiq.app.devices;

import io.qubiq.core.connector.DeviceConnector;
import io.qubiq.core.health.ConnectionState;
import io.qubiq.core.time.Ticker;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the device connections have come up, for readiness ("ready means collecting"). A
 * connection is <i>settled</i> once it has been collecting ({@link DeviceConnector#subscribed}:
 * connected and its subscriptions in place), has failed its first attempt (DOWN), or its start
 * threw. Until every connection is settled the gateway is STARTING, but at most {@code grace} after
 * the connections were started (measured on the monotonic {@link Ticker}): past it, a connection
 * still not collecting is listed as a degraded part and the gateway runs DEGRADED. Once settled, a
 * connection never makes the gateway STARTING again; its outages are degraded parts.
 *
 * <p>A connection added or replaced while the gateway runs ({@link #changedLive(String)}) settles
 * anew within a grace of its own; it shows as STARTING on /health meanwhile but does not make the
 * gateway STARTING again.
 *
 * <p>Each connection's settling is logged once, with the time since start. Settling is observed
 * when asked ({@code /health}, the console, the start-up log), not by a thread of its own.
 *
 * <p>Threading: safe from any thread; {@link #started} is called by the lifecycle thread.
 */
final class DeviceReadiness {

    private static final Logger log = LoggerFactory.getLogger(DeviceReadiness.class);

    private final Duration grace;
    private final Ticker ticker;
    private final Set<String> settled = ConcurrentHashMap.newKeySet();
    /** Connections added or replaced while the gateway runs, with when: each has a grace of its own. */
    private final Map<String, Long> changedLiveNanos = new ConcurrentHashMap<>();
    private volatile long startedNanos;
    private volatile boolean started;

    DeviceReadiness(Duration grace, Ticker ticker) {
        this.grace = grace;
        this.ticker = ticker;
    }

    void started() {
        startedNanos = ticker.nanos();
        started = true;
    }

    /** Marks {@code id} settled (its start threw). */
    void failedToStart(String id) {
        settled.add(id);
    }

    /** Observes {@code connector}: whether it is settled now (and logs the moment it settles). */
    boolean settled(String id, DeviceConnector connector) {
        if (settled.contains(id)) {
            return true;
        }
        boolean collecting = connector.subscribed();
        if (!collecting && connector.status().state() != ConnectionState.DOWN) {
            return false;
        }
        if (settled.add(id)) {
            long ms = elapsed(id).toMillis();
            if (collecting) {
                log.info("Device connection {} collecting (connected and subscribed) {} ms after start", id, ms);
            } else {
                log.warn("Device connection {} failed its first attempt {} ms after start: {}; the gateway runs"
                        + " DEGRADED until it connects", id, ms, connector.status().lastError().orElse("no answer"));
            }
        }
        return true;
    }

    /**
     * Connection {@code id} was added or replaced while the gateway runs: it settles anew, within a
     * grace of its own counted from now, and never makes the gateway STARTING again.
     */
    void changedLive(String id) {
        settled.remove(id);
        changedLiveNanos.put(id, ticker.nanos());
    }

    /** Connection {@code id} was removed while the gateway runs. */
    void removed(String id) {
        settled.remove(id);
        changedLiveNanos.remove(id);
    }

    /** Whether {@code id} was added or replaced while the gateway ran (not part of start-up readiness). */
    boolean isChangedLive(String id) {
        return changedLiveNanos.containsKey(id);
    }

    /** Whether connection {@code id}'s grace has not run out: the gateway's, or its own after a live change. */
    boolean withinGrace(String id) {
        Long since = changedLiveNanos.get(id);
        return since == null ? withinGrace() : Duration.ofNanos(ticker.nanos() - since).compareTo(grace) < 0;
    }

    /** Time since the connections started, or since {@code id} was changed live. */
    Duration elapsed(String id) {
        Long since = changedLiveNanos.get(id);
        return since == null ? elapsed() : Duration.ofNanos(ticker.nanos() - since);
    }

    /** Whether the grace for connections to settle has not run out yet (or they have not been started). */
    boolean withinGrace() {
        return !started || elapsed().compareTo(grace) < 0;
    }

    boolean hasStarted() {
        return started;
    }

    Duration grace() {
        return grace;
    }

    Duration elapsed() {
        return started ? Duration.ofNanos(ticker.nanos() - startedNanos) : Duration.ZERO;
    }
}
