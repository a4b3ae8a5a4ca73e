package io.qubiq.app.devices;

import io.qubiq.connector.opcua.CertificateEntry;
import io.qubiq.connector.opcua.OpcUaConnector;
import io.qubiq.connector.opcua.PkiDirectory;
import io.qubiq.app.lifecycle.DegradedPartSource;
import io.qubiq.console.DeviceAccess;
import io.qubiq.console.RequestFailure;
import io.qubiq.core.connector.Browsable;
import io.qubiq.core.connector.BrowseNode;
import io.qubiq.core.connector.DeviceConnector;
import io.qubiq.core.connector.TagWriteResult;
import io.qubiq.core.event.AuditAction;
import io.qubiq.core.event.AuditEvent;
import io.qubiq.core.event.EventPublisher;
import io.qubiq.core.health.ConnectionState;
import io.qubiq.core.health.ConnectionStatus;
import io.qubiq.core.lifecycle.Component;
import io.qubiq.core.lifecycle.DegradedPart;
import io.qubiq.core.tag.TagPath;
import io.qubiq.core.tag.TagPublisher;
import java.io.IOException;
import java.security.GeneralSecurityException;
import io.qubiq.core.time.Ticker;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Locale;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running device connections: starts each connector (they connect and reconnect on their own
 * threads), knows which connection owns which tag, and serves the console's browse and write
 * requests. A tag write goes straight to the owning device (never buffered) and is audited with
 * the device's verdict, whatever it is. For OPC UA connections it lists the server certificates of
 * the PKI directory and trusts a rejected one on the operator's word (audited as well).
 *
 * <p>Starts after the tag bus (connectors publish into it) and stops before it. A connector whose
 * start throws is logged at ERROR once and listed as a
 * FAILED part on /health; the other connections start and run. A connection that is DOWN is listed
 * too, with its last error, and so is one that is connected but not collecting (its subscriptions
 * are not in place). Readiness means collecting ({@link DeviceReadiness}): while a connection has
 * neither been collecting nor failed its first attempt, within {@code lifecycle.readiness_grace_ms}
 * of start, {@link #starting} is true and the gateway is STARTING; the connection is listed as
 * STARTING, and past the grace as NOT_SUBSCRIBED.
 *
 * <p>Threading: started and stopped by the lifecycle thread; the access methods and
 * {@link #degradedParts} are safe from HTTP threads.
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

    private final Map<String, Entry> entries;
    private final Map<TagPath, String> owners = new LinkedHashMap<>();
    /** The connections whose start threw, with the reason; written by the lifecycle thread. */
    private final Map<String, String> failedToStart = new ConcurrentHashMap<>();
    private final TagPublisher publisher;
    private final EventPublisher events;
    private final Clock clock;
    private final DeviceReadiness readiness;

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
        this.entries = Map.copyOf(entries);
        this.publisher = publisher;
        this.events = events;
        this.clock = clock;
        this.readiness = new DeviceReadiness(readinessGrace, ticker);
        entries.forEach((id, entry) -> entry.tags().forEach(tag -> owners.put(tag, id)));
    }

    @Override
    public String name() {
        return "devices";
    }

    @Override
    public void start() {
        readiness.started();
        entries.forEach((id, entry) -> {
            log.info("Device connection {} ({}, {} tags) starting", id, entry.type(), entry.tags().size());
            try {
                entry.connector().start(publisher);
            } catch (RuntimeException e) {
                String reason = e.getMessage() != null ? e.getMessage() : e.toString();
                failedToStart.put(id, reason);
                readiness.failedToStart(id);
                log.error("Device connection {} failed to start: {}; the other connections run without it", id,
                        reason);
                log.debug("Start-up failure of device connection {}", id, e);
            }
        });
    }

    /**
     * Each connection that failed to start (FAILED), is disconnected (DOWN), is still coming up within
     * the readiness grace (STARTING) or is not collecting although connected or past the grace
     * (NOT_SUBSCRIBED), named {@code device:<id>}.
     */
    @Override
    public List<DegradedPart> degradedParts() {
        List<DegradedPart> parts = new ArrayList<>();
        entries.keySet().stream().sorted().forEach(id -> {
            String failure = failedToStart.get(id);
            if (failure != null) {
                parts.add(new DegradedPart("device:" + id, "FAILED", failure));
                return;
            }
            DeviceConnector connector = entries.get(id).connector();
            boolean settled = readiness.settled(id, connector);
            ConnectionStatus status = connector.status();
            if (status.state() == ConnectionState.DOWN) {
                parts.add(new DegradedPart("device:" + id, ConnectionState.DOWN.name(), "disconnected since "
                        + status.since() + ": " + status.lastError().orElse("no answer")));
            } else if (!connector.subscribed()) {
                parts.add(notCollecting(id, settled, status));
            }
        });
        return parts;
    }

    private DegradedPart notCollecting(String id, boolean settled, ConnectionStatus status) {
        String error = status.lastError().map(e -> ": " + e).orElse("");
        if (!settled && readiness.withinGrace()) {
            return new DegradedPart("device:" + id, "STARTING", "connecting and subscribing; readiness waits up to "
                    + readiness.grace().toMillis() + " ms (lifecycle.readiness_grace_ms) for its first attempt");
        }
        if (!settled) {
            return new DegradedPart("device:" + id, "NOT_SUBSCRIBED", "not collecting "
                    + readiness.elapsed().toSeconds() + " s after start"
                    + (error.isEmpty() ? ": no answer from the device yet" : error));
        }
        return new DegradedPart("device:" + id, "NOT_SUBSCRIBED", "connected but not collecting: its subscriptions"
                + " are not in place" + error);
    }

    /**
     * Whether some connection has neither been collecting nor failed its first attempt, and the
     * readiness grace has not run out: the gateway is not ready yet.
     */
    @Override
    public boolean starting() {
        if (!readiness.hasStarted() || !readiness.withinGrace()) {
            return false; // not started (the lifecycle says STARTING) or waited long enough
        }
        for (Map.Entry<String, Entry> entry : entries.entrySet()) {
            if (!failedToStart.containsKey(entry.getKey()) && !readiness.settled(entry.getKey(),
                    entry.getValue().connector())) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void stop() {
        entries.forEach((id, entry) -> {
            try {
                entry.connector().close();
            } catch (RuntimeException e) {
                log.warn("Device connection {} did not close cleanly: {}", id, e.toString());
            }
        });
    }

    @Override
    public List<Device> devices() {
        return entries.keySet().stream().sorted().map(this::view).toList();
    }

    @Override
    public Optional<Device> device(String id) {
        return Optional.ofNullable(entries.get(id)).map(entry -> view(id));
    }

    private Device view(String id) {
        Entry entry = entries.get(id);
        return new Device(id, entry.type(), entry.connector().status(), entry.connector().counters(),
                entry.tags().size(), entry.connector() instanceof Browsable, entry.connector().warnings());
    }

    @Override
    public CompletableFuture<List<BrowseNode>> browse(String connectionId, String nodeId) {
        Entry entry = entries.get(connectionId);
        if (entry == null) {
            throw new RequestFailure.NotFound("no device connection '" + connectionId + "'");
        }
        if (!(entry.connector() instanceof Browsable browsable)) {
            throw new RequestFailure.InvalidRequest("device connection '" + connectionId + "' (" + entry.type()
                    + ") has no address space to browse");
        }
        return browsable.browse(nodeId);
    }

    @Override
    public CompletableFuture<TagWriteResult> write(TagPath tag, Object value, String user, String from) {
        String owner = owners.get(tag);
        if (owner == null) {
            throw new RequestFailure.NotFound("no device connection reads tag " + tag + "; only configured tags can be written");
        }
        CompletableFuture<TagWriteResult> result = entries.get(owner).connector().write(tag, value);
        return result.whenComplete((verdict, failure) -> audit(tag, value, user, from, owner,
                failure == null ? verdict.status().label() : describe(failure)));
    }

    private void audit(TagPath tag, Object value, String user, String from, String owner, String outcome) {
        Map<String, String> details = new LinkedHashMap<>();
        details.put(AuditAction.DETAIL_FROM, from);
        details.put("connection", owner);
        details.put("value", String.valueOf(value));
        events.audit(new AuditEvent(clock.instant(), user, AuditAction.TAG_WRITE, "tag/" + tag, outcome, details));
    }

    @Override
    public Certificates certificates(String connectionId) {
        PkiDirectory directory = pkiDirectory(connectionId, certificateHolder(connectionId));
        return new Certificates(directory.root().toString(),
                directory.serverCertificates().stream().map(DeviceConnections::view).toList());
    }

    @Override
    public Certificate trust(String connectionId, String thumbprint, String user, String from) {
        OpcUaConnector connector = certificateHolder(connectionId);
        PkiDirectory directory = pkiDirectory(connectionId, connector);
        Optional<CertificateEntry> trusted;
        try {
            trusted = connector.trustServerCertificate(thumbprint);
        } catch (IllegalArgumentException e) {
            throw new RequestFailure.InvalidRequest(e.getMessage());
        } catch (IOException | GeneralSecurityException e) {
            throw unreadable(connectionId, e);
        }
        CertificateEntry entry = trusted.orElseThrow(() -> new RequestFailure.NotFound("connection '" + connectionId
                + "' has no server certificate with thumbprint " + thumbprint + " in " + directory.root().resolve("rejected")
                + " or trusted/certs; GET /api/v1/connections/" + connectionId + "/certificates lists them"));
        Map<String, String> details = new LinkedHashMap<>();
        details.put(AuditAction.DETAIL_FROM, from);
        details.put("thumbprint", entry.thumbprint());
        details.put("subject", entry.subject());
        events.audit(new AuditEvent(clock.instant(), user, AuditAction.CERTIFICATE_TRUST,
                "connection/" + connectionId + "/certificate/" + entry.thumbprint(), "trusted", details));
        return view(entry);
    }

    /** The connection's OPC UA connector, or the API error that says why it has no certificates. */
    private OpcUaConnector certificateHolder(String connectionId) {
        Entry entry = entries.get(connectionId);
        if (entry == null) {
            throw new RequestFailure.NotFound("no device connection '" + connectionId + "'");
        }
        if (!(entry.connector() instanceof OpcUaConnector opcua)) {
            throw new RequestFailure.Conflict("device connection '" + connectionId + "' (" + entry.type() + ") keeps no"
                    + " certificates: only OPC UA connections have a PKI directory");
        }
        return opcua;
    }

    private static PkiDirectory pkiDirectory(String connectionId, OpcUaConnector connector) {
        try {
            return connector.certificateDirectory().orElseThrow(() -> new RequestFailure.Conflict("device connection '"
                    + connectionId + "' uses security_policy none: no certificates are exchanged; set a security"
                    + " policy such as basic256sha256 to use them"));
        } catch (IOException | GeneralSecurityException e) {
            throw unreadable(connectionId, e);
        }
    }

    private static RequestFailure unreadable(String connectionId, Exception e) {
        log.warn("Device connection {}: its PKI directory cannot be opened: {}", connectionId, e.toString());
        return new RequestFailure.Fault("the PKI directory of connection '" + connectionId + "' cannot be opened: " + e);
    }

    private static Certificate view(CertificateEntry entry) {
        return new Certificate(entry.thumbprint(), entry.subject(), entry.issuer(), entry.notBefore(), entry.notAfter(),
                entry.folder().name().toLowerCase(Locale.ROOT));
    }

    private static String describe(Throwable failure) {
        Throwable cause = failure.getCause() != null && failure instanceof java.util.concurrent.CompletionException
                ? failure.getCause() : failure;
        return "failed: " + cause.getMessage();
    }
}
