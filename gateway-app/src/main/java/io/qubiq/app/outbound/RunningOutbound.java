package io.qubiq.app.outbound;

import io.qubiq.app.config.OutboundConfig;
import io.qubiq.core.event.EventPublisher;
import io.qubiq.core.lifecycle.Periodic;
import io.qubiq.storeforward.ChannelStatus;
import io.qubiq.storeforward.ConnectionMonitor;
import io.qubiq.core.disk.DiskReserve;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The outbound connections running now, by id: those the gateway started with, then those added while it
 * runs, less those retired. Everything that looks a connection up by its id (pipeline outputs, Try, the
 * console's channel list, an orphan's attach, the live apply) reads it here, so a connection added live is
 * found at once and one retired is found no more.
 *
 * <p>Life of a connection added live ({@link #add}): built by its kind as at start (sink, probe registered
 * with the connection monitor, channel in {@code <data>/connections/<id>}, whose backlog, if the directory
 * holds one, it delivers), the disk reserve set, the channel started, then listed, then the
 * {@link Wiring} told (metrics, lifecycle). Retired ({@link #retire}): no longer listed, its channel stopped
 * (what is buffered stays on disk), its probe unregistered, its sink closed, the wiring told (which lists a
 * directory still holding data as an orphan). {@link #retireWhenDrained}: the connection runs on until its
 * buffer and quarantine are both empty (checked every second; the quarantine empties only by an operator's
 * retry or drop), then is retired; {@link #keep} takes it back before that.
 *
 * <p>What a crash leaves: nothing here is kept; the configuration file says what runs at the next start, and
 * the directory of a connection retired (or draining) with data is an orphan then.
 *
 * <p>Threading: reads from any thread (a copy-on-write map); {@link #add}, {@link #retire}, {@link #keep}
 * and the drain check are serialised by this object's lock.
 */
public final class RunningOutbound implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(RunningOutbound.class);
    static final Duration DRAIN_CHECK = Duration.ofSeconds(1);

    /** What the gateway does around a connection that joins or leaves while it runs. */
    public interface Wiring {
        /** {@code connection}'s channel has started: bind its metrics, let the lifecycle stop it at shutdown. */
        void started(OutboundConnection<?> connection);

        /** {@code connection}'s channel has stopped: unbind its metrics, list its directory if it holds data. */
        void retired(OutboundConnection<?> connection);

        /** Who writes to connection {@code id} and cannot let go of it while the gateway runs, if anyone. */
        default Optional<String> heldBy(String id) {
            return Optional.empty();
        }
    }

    private volatile Map<String, OutboundConnection<?>> running;
    private final Set<String> draining = ConcurrentHashMap.newKeySet();
    private final Path dataDir;
    private final ConnectionMonitor monitor;
    private final Duration probeInterval;
    private final EventPublisher events;
    private final Clock clock;
    private final DiskReserve disk;
    private Wiring wiring = new Wiring() {
        @Override
        public void started(OutboundConnection<?> connection) {
        }

        @Override
        public void retired(OutboundConnection<?> connection) {
        }
    };
    private ScheduledExecutorService drainCheck;

    /** @param started the connections built at start ({@link OutboundConnections#build}), in configuration order */
    public RunningOutbound(Map<String, OutboundConnection<?>> started, Path dataDir, ConnectionMonitor monitor,
                           Duration probeInterval, EventPublisher events, Clock clock, DiskReserve disk) {
        this.running = Collections.unmodifiableMap(new LinkedHashMap<>(started));
        this.dataDir = dataDir;
        this.monitor = monitor;
        this.probeInterval = probeInterval;
        this.events = events;
        this.clock = clock;
        this.disk = disk;
    }

    /** Sets what is done around connections added and retired; once, before anything is added. */
    public synchronized void wire(Wiring wiring) {
        this.wiring = wiring;
    }

    /** Every running connection, by id; a snapshot. */
    public Map<String, OutboundConnection<?>> all() {
        return running;
    }

    public Optional<OutboundConnection<?>> get(String id) {
        return Optional.ofNullable(running.get(id));
    }

    /** Who writes to connection {@code id} and keeps it running until a restart (the audit journal), if anyone. */
    public synchronized Optional<String> heldBy(String id) {
        return wiring.heldBy(id);
    }

    /** Whether {@code id} runs only to deliver what it holds before it is retired. */
    public boolean draining(String id) {
        return draining.contains(id);
    }

    /**
     * Builds, starts and lists connection {@code id}.
     *
     * @throws Exception its section does not make a sink, or its channel did not start; nothing is listed
     *     and what was built is closed again
     */
    public synchronized OutboundConnection<?> add(String id, OutboundConfig config) throws Exception {
        if (running.containsKey(id)) {
            throw new IllegalStateException("outbound connection '" + id + "' runs already");
        }
        OutboundConnection<?> connection = OutboundConnections.one(id, config, dataDir, monitor, probeInterval, events,
                clock);
        try {
            connection.channel().diskReserve(disk);
            connection.channel().start();
        } catch (Exception | Error e) {
            monitor.unregister(id);
            connection.channel().stop();
            connection.sink().close();
            throw e;
        }
        put(id, connection);
        wiring.started(connection);
        log.info("Outbound connection {} added live ({}); its channel runs", id, connection.kind().name());
        return connection;
    }

    /** Stops and forgets connection {@code id} now; what its buffer holds stays on disk. Nothing when not running. */
    public synchronized void retire(String id) throws Exception {
        OutboundConnection<?> connection = running.get(id);
        if (connection == null) {
            return;
        }
        draining.remove(id);
        remove(id);
        try {
            connection.channel().stop();
        } finally {
            monitor.unregister(id);
            connection.sink().close();
            wiring.retired(connection);
        }
        ChannelStatus left = connection.channel().status();
        log.info("Outbound connection {} removed live; {}", id, left.bufferedItems() == 0 && left.quarantineItems() == 0
                ? "it held nothing" : "its directory keeps " + left.bufferedItems() + " undelivered and "
                + left.quarantineItems() + " quarantined items, listed as an orphan");
    }

    /**
     * Keeps connection {@code id} running until its buffer and its quarantine are empty, then {@linkplain
     * #retire retires} it. Retires it at once when it holds nothing.
     */
    public synchronized void retireWhenDrained(String id) throws Exception {
        if (!running.containsKey(id)) {
            return;
        }
        draining.add(id);
        if (drainCheck == null) {
            drainCheck = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread thread = new Thread(r, "outbound-drain-check");
                thread.setDaemon(true);
                return thread;
            });
            drainCheck.scheduleWithFixedDelay(Periodic.guarded(this::retireDrained, e -> log.error(
                            "Checking the draining outbound connections failed: {}; checked again in a second",
                            e.toString(), e)), DRAIN_CHECK.toMillis(), DRAIN_CHECK.toMillis(), TimeUnit.MILLISECONDS);
        }
        log.info("Outbound connection {} removed from the configuration: it runs on until its backlog and quarantine"
                + " are empty", id);
        retireDrained();
    }

    /** Takes back connection {@code id} that was to be retired once drained: it runs on as a configured one. */
    public synchronized boolean keep(String id) {
        return draining.remove(id);
    }

    private synchronized void retireDrained() {
        for (String id : Set.copyOf(draining)) {
            OutboundConnection<?> connection = running.get(id);
            ChannelStatus status = connection == null ? null : connection.channel().status();
            if (status != null && (status.bufferedItems() > 0 || status.quarantineItems() > 0)) {
                continue;
            }
            try {
                retire(id);
                log.info("Outbound connection {} drained: delivered everything it held, and is now gone", id);
            } catch (Exception e) {
                log.error("Outbound connection {} drained but could not be stopped cleanly: {}", id, e.toString());
            }
        }
    }

    private void put(String id, OutboundConnection<?> connection) {
        Map<String, OutboundConnection<?>> next = new LinkedHashMap<>(running);
        next.put(id, connection);
        running = Collections.unmodifiableMap(next);
    }

    private void remove(String id) {
        Map<String, OutboundConnection<?>> next = new LinkedHashMap<>(running);
        next.remove(id);
        running = Collections.unmodifiableMap(next);
    }

    /** Ends the drain check; the connections themselves are stopped by the lifecycle. */
    @Override
    public synchronized void close() {
        if (drainCheck != null) {
            drainCheck.shutdownNow();
            drainCheck = null;
        }
    }
}
