package io.qubiq.app.devices;

import io.qubiq.app.lifecycle.DegradedPartSource;
import io.qubiq.console.DeviceAccess;
import io.qubiq.core.connector.BrowseNode;
import io.qubiq.core.connector.DeviceConnector;
import io.qubiq.core.connector.TagWriteResult;
import io.qubiq.core.event.EventPublisher;
import io.qubiq.core.lifecycle.Component;
import io.qubiq.core.lifecycle.DegradedPart;
import io.qubiq.core.tag.TagPath;
import io.qubiq.core.tag.TagPublisher;
import io.qubiq.core.tag.TagValue;
import io.qubiq.core.time.Ticker;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running device connections, as the lifecycle, /health and the console see them: one facade
 * over the parts that each do one job, built together over the same entries.
 * <ul>
 *   <li>{@link ConnectorLifecycle} starts and stops the connectors and records the ones whose start threw;</li>
 *   <li>{@link DeviceHealth} lists the connections that failed, are down or are not collecting, and says
 *       whether the gateway is still STARTING ({@link DeviceReadiness}: ready means collecting);</li>
 *   <li>{@link DeviceViews} shows each connection and browses the ones with an address space;</li>
 *   <li>{@link TagWrites} writes a tag straight to the connection that owns it (never buffered) and audits it;</li>
 *   <li>{@link OpcUaCertificates} lists an OPC UA connection's server certificates and trusts one, audited.</li>
 * </ul>
 * The entries are built by the connections' kinds ({@link DeviceKinds#entries}).
 *
 * <p>Starts after the tag bus (connectors publish into it) and stops before it. A connector whose
 * start throws is a FAILED part on /health; the other connections start and run.
 *
 * <p>A connection can be added, replaced or removed while the gateway runs ({@link #replace}, for a
 * configuration applied live): the parts read the connections through {@link LiveEntries}, one
 * consistent snapshot at a time.
 *
 * <p>Threading: started and stopped by the lifecycle thread, {@link #replace} by the configuration
 * API's thread, all three serialised on this object; the access methods and {@link #degradedParts}
 * are safe from HTTP threads.
 */
public final class DeviceConnections implements Component, DeviceAccess, DegradedPartSource {

    private static final Logger log = LoggerFactory.getLogger(DeviceConnections.class);

    /**
     * A configured connection: its connector, its kind's name, the tags it owns (routes writes to) and
     * whether its messages can trigger pipelines.
     */
    public record Entry(DeviceConnector connector, String type, List<TagPath> tags, boolean triggersPipelines) {

        /** A connection whose messages trigger no pipeline. */
        public Entry(DeviceConnector connector, String type, List<TagPath> tags) {
            this(connector, type, tags, false);
        }
    }

    private final LiveEntries entries;
    private final DeviceReadiness readiness;
    private final ConnectorLifecycle lifecycle;
    private final DeviceHealth health;
    private final DeviceViews views;
    private final TagWrites writes;
    private final OpcUaCertificates certificates;
    private boolean running;

    /** Connections with the default readiness grace (30 s) on the system's monotonic clock. */
    public DeviceConnections(Map<String, Entry> entries, TagPublisher publisher, EventPublisher events, Clock clock) {
        this(entries, publisher, events, clock, Duration.ofSeconds(30), Ticker.system());
    }

    /**
     * @param readinessGrace how long after start readiness waits for a connection that neither
     *                       collects nor has failed its first attempt
     */
    public DeviceConnections(Map<String, Entry> entries, TagPublisher publisher, EventPublisher events, Clock clock,
                             Duration readinessGrace, Ticker ticker) {
        this(entries, publisher, events, clock, readinessGrace, ticker, path -> Optional.empty());
    }

    /**
     * @param latest each tag's last known value (the tag bus's latest table): a tag write's audit entry
     *               records it as the value before the write
     */
    public DeviceConnections(Map<String, Entry> entries, TagPublisher publisher, EventPublisher events, Clock clock,
                             Duration readinessGrace, Ticker ticker, Function<TagPath, Optional<TagValue>> latest) {
        this.entries = new LiveEntries(entries);
        this.readiness = new DeviceReadiness(readinessGrace, ticker);
        this.lifecycle = new ConnectorLifecycle(this.entries, publisher, readiness);
        this.health = new DeviceHealth(this.entries, lifecycle, readiness);
        this.writes = new TagWrites(this.entries, latest, events, clock);
        this.certificates = new OpcUaCertificates(this.entries, events, clock);
        this.views = new DeviceViews(this.entries, certificates::keepsCertificates);
    }

    @Override
    public String name() {
        return "devices";
    }

    @Override
    public synchronized void start() {
        running = true;
        lifecycle.start();
    }

    @Override
    public synchronized void stop() {
        running = false;
        lifecycle.stop();
    }

    /**
     * Changes one connection while the gateway runs (a configuration applied live): the old connector,
     * if any, is closed first (so a broker or server never sees the same client twice), then {@code next}
     * is installed and started; empty removes the connection. The other connections are not touched and
     * keep collecting. The changed connection settles anew within its own readiness grace (STARTING on
     * /health meanwhile). Before {@link #start} or after {@link #stop}, the entry is only installed or
     * removed, and starts with the others.
     */
    public synchronized void replace(String id, Optional<Entry> next) {
        Entry old = entries.get(id);
        if (running && old != null) {
            log.info("Device connection {} stopping to apply its new configuration", id);
            lifecycle.closeOne(id, old);
        }
        if (next.isEmpty()) {
            entries.withdraw(id);
            readiness.removed(id);
            if (old != null) {
                log.info("Device connection {} removed", id);
            }
            return;
        }
        entries.install(id, next.get());
        if (running) {
            readiness.changedLive(id);
            lifecycle.startOne(id, next.get());
        }
    }

    /** The ids of the connections now, in configured order. */
    public List<String> ids() {
        return List.copyOf(entries.keySet());
    }

    @Override
    public List<DegradedPart> degradedParts() {
        return health.degradedParts();
    }

    @Override
    public boolean starting() {
        return health.starting();
    }

    /**
     * Whether every device connection started at start-up collects or failed its first attempt (or the
     * readiness grace ran out); false before they were started. Lock-free, safe from any thread.
     */
    public boolean startUpSettled() {
        return health.startUpSettled();
    }

    @Override
    public List<Device> devices() {
        return views.devices();
    }

    @Override
    public Optional<Device> device(String id) {
        return views.device(id);
    }

    @Override
    public CompletableFuture<List<BrowseNode>> browse(String connectionId, String nodeId) {
        return views.browse(connectionId, nodeId);
    }

    @Override
    public CompletableFuture<TagWriteResult> write(TagPath tag, Object value, String user, String from) {
        return writes.write(tag, value, user, from);
    }

    @Override
    public Certificates certificates(String connectionId) {
        return certificates.certificates(connectionId);
    }

    @Override
    public Certificate trust(String connectionId, String thumbprint, String user, String from) {
        return certificates.trust(connectionId, thumbprint, user, from);
    }
}
