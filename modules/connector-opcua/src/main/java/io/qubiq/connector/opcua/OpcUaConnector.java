package io.qubiq.connector.opcua;

import io.qubiq.core.connector.BrowseNode;
import io.qubiq.core.connector.Browsable;
import io.qubiq.core.connector.DeviceConnector;
import io.qubiq.core.connector.TagWriteResult;
import io.qubiq.core.connector.WriteLimitException;
import io.qubiq.core.error.PermanentException;
import io.qubiq.core.event.EventPublisher;
import io.qubiq.core.error.TransientException;
import io.qubiq.core.health.ConnectionState;
import io.qubiq.core.health.ConnectionStatus;
import io.qubiq.core.tag.Quality;
import io.qubiq.core.tag.TagPath;
import io.qubiq.core.tag.TagPublisher;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.sdk.client.SessionActivityListener;
import org.eclipse.milo.opcua.sdk.client.UaSession;
import org.eclipse.milo.opcua.sdk.client.subscriptions.OpcUaSubscription;
import org.eclipse.milo.opcua.stack.core.NodeIds;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.StatusCode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads tags from one OPC UA server with Eclipse Milo and writes them back on request.
 *
 * <p><b>Connecting.</b> {@link #start} returns at once. The connector thread builds a client and
 * connects; while that fails, it retries after {@link ReconnectBackoff} waits
 * ({@code reconnect_initial_ms} doubling to {@code reconnect_max_ms}). Once a session exists,
 * Milo's session state machine keeps it: when the connection drops, every tag is published Bad
 * NotConnected and the status turns DOWN; Milo reconnects on its own schedule and transfers the
 * subscriptions to the new session. A subscription the server cannot transfer (it restarted, or
 * the session timed out) is re-created by the {@link SubscriptionSynchronizer}; after any
 * reconnect every tag is read once, so values that did not change during the outage turn Good
 * again.
 *
 * <p><b>Values.</b> In subscription mode the server reports changes of monitored items; in
 * polling mode the connector reads every tag each {@code polling_interval_ms}. The {@link
 * TagValueFlow} converts each value ({@link VariantConversion}), scales it, gives it the server's
 * status code as quality ({@link QualityMapping}), drops a repeated notification, passes it
 * through the {@link StaleTagWatch} and publishes it with the source and server timestamps.
 * Milo's report of a notification message the server could not resend is counted
 * ({@code notifications_lost}) and logged.
 *
 * <p><b>Writes</b> go straight to the device with OPC UA Write, never buffered: the future
 * completes with the device's status code, or fails with a {@link PermanentException} (tag not
 * configured or not writable, value not convertible: nothing was sent), a {@link
 * TransientException} (not connected: nothing was sent) or an {@link
 * io.qubiq.core.error.UnknownOutcomeException}
 * (no answer within {@code request_timeout_ms}: the write may have happened).
 *
 * <p><b>Threading.</b> One connector thread ({@code qubiq-opcua-<id>}) owns connecting,
 * subscription synchronization, polling and stale sweeps. Milo delivers values on its own threads;
 * they are converted and published there (the publisher is thread-safe). {@link #status()},
 * {@link #stats()}, {@link #write} and {@link #browse} may be called from any thread.
 */
public final class OpcUaConnector implements DeviceConnector, Browsable {

    private static final Logger LOG = LoggerFactory.getLogger(OpcUaConnector.class);

    private final String id;
    private final OpcUaConnectionConfig config;
    private final Clock clock;
    private final Map<TagPath, OpcUaTagConfig> tags = new LinkedHashMap<>();
    /** The same tags as a list, for the poller (never changes after construction). */
    private final List<Map.Entry<TagPath, OpcUaTagConfig>> tagList;
    private final TagValueFlow values;
    private final ServerQueueOverflows overflows;
    private final ScheduledExecutorService thread;
    private final ReconnectBackoff backoff;
    private final SubscriptionSynchronizer synchronizer;
    private final TagWriter writer;
    private final SessionOpener opener;
    private final TagPoller poller;
    private final AtomicReference<ConnectionStatus> status;
    private final AtomicLong errors = new AtomicLong();
    private final AtomicLong reconnects = new AtomicLong();
    private final AtomicLong subscriptionsRecreated = new AtomicLong();
    private final AtomicLong notificationsLost = new AtomicLong();
    private volatile OpcUaClient client;
    /**
     * Tags whose granted item drops changes (revised sampling interval and queue size), with what was
     * granted; replaced by the connector thread after each reconcile, read from any thread.
     */
    private volatile Map<TagPath, String> missingChanges = Map.of();
    private volatile boolean closed;
    /**
     * Collecting: connected, and in subscription mode the subscriptions created (the server answered
     * with revised intervals). Written by the connector thread (and {@link #markDown} on Milo's).
     */
    private volatile boolean subscribed;
    private boolean sessionLost;
    private boolean warnedCredentialsInClear; // owned by the connector thread
    /** The scheduled connection attempt after a failed one; owned by the connector thread. */
    private ScheduledFuture<?> nextAttempt;

    public OpcUaConnector(String id, OpcUaConnectionConfig config) {
        this(id, config, Clock.systemUTC());
    }

    public OpcUaConnector(String id, OpcUaConnectionConfig config, Clock clock) {
        this(id, config, clock, EventPublisher.none());
    }

    /** @param events where values the server dropped (queue overflow) are reported as losses */
    public OpcUaConnector(String id, OpcUaConnectionConfig config, Clock clock, EventPublisher events) {
        this(id, config, clock, events, KeyStorePassword.legacy());
    }

    /**
     * @param events where values the server dropped (queue overflow) are reported as losses
     * @param keyStorePassword the password of the PKI directory's key store (the installation's)
     */
    public OpcUaConnector(String id, OpcUaConnectionConfig config, Clock clock, EventPublisher events,
                          KeyStorePassword keyStorePassword) {
        this.id = id;
        this.overflows = new ServerQueueOverflows(id, events, clock);
        this.config = config;
        this.clock = clock;
        config.tags().forEach(tag -> tags.put(tag.tagPath(), tag));
        this.tagList = List.copyOf(tags.entrySet());
        this.thread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "qubiq-opcua-" + id);
            t.setDaemon(true);
            return t;
        });
        this.backoff = new ReconnectBackoff(config.reconnectInitialMs(), config.reconnectMaxMs());
        this.values = new TagValueFlow(Duration.ofMillis(config.staleAfterMs()), config.mode(), clock, overflows);
        this.synchronizer = new SubscriptionSynchronizer(config, values, this::onTransferFailed,
                this::onNotificationDataLost);
        this.opener = new SessionOpener(id, config, keyStorePassword);
        this.poller = new TagPoller(values, this::onReadFailed);
        this.writer = new TagWriter(config.requestTimeoutMs(), values::rawType);
        this.status = new AtomicReference<>(ConnectionStatus.unknown(clock.instant()));
    }

    @Override
    public String id() {
        return id;
    }

    /** Connected, and in subscription mode its subscriptions created (polling mode: connected). */
    @Override
    public boolean subscribed() {
        return subscribed && !closed && status.get().state() == ConnectionState.UP;
    }

    @Override
    public void start(TagPublisher target) {
        values.start(target);
        thread.execute(this::connect);
        if (values.staleWatchEnabled()) {
            long every = Math.max(20, config.staleAfterMs() / 4);
            thread.scheduleWithFixedDelay(guarded(values::sweepStale), every, every, TimeUnit.MILLISECONDS);
        }
        thread.scheduleWithFixedDelay(guarded(overflows::report), 1, 1, TimeUnit.SECONDS);
        if (config.mode() == AcquisitionMode.POLLING) {
            thread.scheduleWithFixedDelay(guarded(this::poll), config.pollingIntervalMs(), config.pollingIntervalMs(),
                    TimeUnit.MILLISECONDS);
        }
    }

    @Override
    public ConnectionStatus status() {
        return status.get();
    }

    @Override
    public java.util.Map<String, Long> counters() {
        OpcUaStats stats = stats();
        java.util.Map<String, Long> counters = new java.util.LinkedHashMap<>();
        counters.put("values_received", stats.valuesReceived());
        counters.put("errors", stats.errors());
        counters.put("reconnects", stats.reconnects());
        counters.put("subscriptions_recreated", stats.subscriptionsRecreated());
        counters.put("notifications_lost", stats.notificationsLost());
        counters.put("repeats_dropped", stats.repeatsDropped());
        counters.put("items_missing_changes", (long) missingChanges.size());
        counters.put("values_flagged_overflow", overflows.total());
        return counters;
    }

    /**
     * The items whose server-revised sampling interval and queue size mean changes are missed, as one
     * line with the count, the reason and an example; empty when there are none.
     */
    @Override
    public List<String> warnings() {
        Map<TagPath, String> missing = missingChanges;
        List<String> warnings = new java.util.ArrayList<>(2);
        credentialsInClear().ifPresent(warnings::add);
        if (!missing.isEmpty()) {
            warnings.add(missingChangesText(missing));
        }
        return List.copyOf(warnings);
    }

    /**
     * With a user name and password over SecurityPolicy None, {@code credentialsInClear: ...}: the message
     * channel is not encrypted, so the password may cross the network readable (unless the server's
     * token policy encrypts it on its own, which the gateway cannot promise).
     */
    private Optional<String> credentialsInClear() {
        if (!(config.identity() instanceof OpcUaIdentity.Username username)
                || config.securityPolicy() != SecurityPolicyName.NONE) {
            return Optional.empty();
        }
        return Optional.of("credentialsInClear: user " + username.username() + " signs in over security_policy none,"
                + " so the password may cross the network unencrypted; set security_policy basic256sha256 (or"
                + " aes128_sha256_rsaoaep, aes256_sha256_rsapss) with security_mode sign_and_encrypt, and trust the"
                + " server's certificate");
    }

    /** The tags whose granted monitored item misses changes, with what the server granted. Any thread. */
    public Map<TagPath, String> itemsMissingChanges() {
        return missingChanges;
    }

    private static String missingChangesText(Map<TagPath, String> missing) {
        return "itemsMissingChanges: " + missing.size() + (missing.size() == 1 ? " item misses" : " items miss")
                + " changes: the sampling interval and queue size the server granted (revised or as configured) let the queue hold fewer"
                + " samples than one publishing interval brings; for example " + missing.values().iterator().next()
                + ". Raise queue_size (or tag_defaults.queue_size), or lengthen sampling_interval_ms if the"
                + " faster changes do not matter";
    }

    public OpcUaStats stats() {
        return new OpcUaStats(values.received(), errors.get(), reconnects.get(), subscriptionsRecreated.get(),
                notificationsLost.get(), values.repeatsDropped());
    }

    /** The certificate directory, once a secured connection has opened it. */
    public Optional<PkiDirectory> pki() {
        return opener.pki();
    }

    /**
     * The certificate directory of a secured connection, opened on first use (so the operator can
     * look before the first attempt); empty with SecurityPolicy None. Safe from any thread.
     */
    public Optional<PkiDirectory> certificateDirectory() throws IOException, GeneralSecurityException {
        return opener.pkiDirectory();
    }

    /**
     * Trusts the rejected server certificate with this thumbprint ({@link PkiDirectory#trust(String)})
     * and, while the connection is down, makes the next connection attempt now instead of after
     * the backoff. Returns the certificate's entry, or empty when the directory does not hold it or
     * the connection uses SecurityPolicy None. Safe from any thread.
     *
     * @throws IllegalArgumentException when {@code thumbprint} is not 40 hex digits
     */
    public Optional<CertificateEntry> trustServerCertificate(String thumbprint) throws IOException,
            GeneralSecurityException {
        Optional<PkiDirectory> directory = opener.pkiDirectory();
        if (directory.isEmpty()) {
            return Optional.empty();
        }
        Optional<CertificateEntry> trusted = directory.get().trust(thumbprint);
        trusted.ifPresent(entry -> {
            LOG.info("OPC UA connection {}: server certificate {} ({}) is trusted now", id, entry.thumbprint(),
                    entry.subject());
            onConnectorThread(this::attemptNow);
        });
        return trusted;
    }

    /** What the server granted each tag's monitored item (subscription mode). Runs on the connector thread. */
    public Map<TagPath, GrantedItem> grantedItems() {
        if (closed) {
            return Map.of();
        }
        try {
            return CompletableFuture.supplyAsync(synchronizer::granted, thread).join();
        } catch (RejectedExecutionException e) {
            return Map.of(); // closed concurrently
        }
    }

    // ---- connecting (connector thread) ----

    /** Replaces a scheduled attempt by one now; nothing when connected (Milo keeps the session). */
    private void attemptNow() {
        if (closed || client != null) {
            return;
        }
        if (nextAttempt != null) {
            nextAttempt.cancel(false);
            nextAttempt = null;
        }
        backoff.reset();
        connect();
    }

    private void connect() {
        nextAttempt = null;
        if (closed || client != null) {
            return; // connected already: an attempt that was overtaken by attemptNow
        }
        if (!warnedCredentialsInClear) {
            warnedCredentialsInClear = true;
            credentialsInClear().ifPresent(warning -> LOG.warn("OPC UA connection {}: {}", id, warning));
        }
        OpcUaClient created;
        try {
            created = opener.open(new SessionActivityListener() {
                @Override
                public void onSessionActive(UaSession session) {
                    onConnectorThread(() -> sessionActive());
                }

                @Override
                public void onSessionInactive(UaSession session) {
                    onConnectorThread(() -> sessionInactive("the session with " + config.endpointUrl() + " was lost"));
                }
            });
        } catch (Exception e) {
            errors.incrementAndGet();
            long delay = backoff.nextDelayMs();
            String message = opener.explain(e) + " (next attempt in " + delay + " ms)";
            LOG.warn("OPC UA connection {}: {}", id, message);
            markDown(message);
            nextAttempt = onConnectorThread(this::connect, delay);
            return;
        }
        if (closed) {
            created.disconnectAsync();
            return;
        }
        client = created;
        backoff.reset();
        LOG.info("OPC UA connection {}: session with {} active ({} mode, {} tags)", id, config.endpointUrl(),
                config.mode().name().toLowerCase(java.util.Locale.ROOT), tags.size());
        markUp();
        if (config.mode() == AcquisitionMode.SUBSCRIPTION) {
            reconcileSubscriptions();
        } else {
            subscribed = true;
        }
    }

    private void sessionActive() {
        if (closed || client == null) {
            return;
        }
        if (sessionLost) {
            sessionLost = false;
            reconnects.incrementAndGet();
            LOG.info("OPC UA connection {}: session with {} active again", id, config.endpointUrl());
            markUp();
            if (config.mode() == AcquisitionMode.SUBSCRIPTION) {
                reconcileSubscriptions();
                refreshAll();
            } else {
                subscribed = true;
            }
        }
    }

    private void sessionInactive(String message) {
        if (closed || client == null) {
            return;
        }
        sessionLost = true;
        LOG.warn("OPC UA connection {}: {}; reconnecting", id, message);
        markDown(message);
    }

    private void onTransferFailed(OpcUaSubscription subscription) {
        onConnectorThread(() -> {
            subscriptionsRecreated.incrementAndGet();
            LOG.info("OPC UA connection {}: the server could not transfer a subscription; re-creating it", id);
            reconcileSubscriptions();
        });
    }

    /**
     * Milo saw a gap in a subscription's notification sequence numbers and the server could not
     * send the missing message again (Republish failed): values of its tags may be missing. Called
     * on Milo's threads; counted and logged.
     */
    private void onNotificationDataLost(OpcUaSubscription subscription) {
        long lost = notificationsLost.incrementAndGet();
        errors.incrementAndGet();
        LOG.warn("OPC UA connection {}: a notification message of subscription {} did not arrive and the server"
                + " could not send it again; values of its tags may be missing ({} such gaps since start)", id,
                subscription.getSubscriptionId().map(Object::toString).orElse("?"), lost);
    }

    private void reconcileSubscriptions() {
        OpcUaClient current = client;
        if (current == null || closed) {
            return;
        }
        try {
            Map<TagPath, StatusCode> refused = synchronizer.synchronize(current);
            LOG.info("OPC UA connection {}: subscribed: {}", id, synchronizer.summary());
            Map<TagPath, String> missing = java.util.Collections.unmodifiableMap(synchronizer.itemsMissingChanges());
            missingChanges = missing;
            if (!missing.isEmpty()) {
                LOG.warn("OPC UA connection {}: {}", id, missingChangesText(missing));
            }
            subscribed = status.get().state() == ConnectionState.UP; // after the log line: readiness follows it
            Instant now = clock.instant();
            refused.forEach((path, code) -> {
                errors.incrementAndGet();
                LOG.warn("OPC UA connection {}: the server refused to monitor {} ({}): {}", id, path,
                        tags.get(path).nodeId(), QualityMapping.of(code));
                values.publishWithoutValue(path, QualityMapping.of(code), now);
            });
        } catch (Exception e) {
            errors.incrementAndGet();
            String error = "cannot create subscriptions: " + FailureText.describe(e);
            LOG.warn("OPC UA connection {}: {}; retrying", id, error);
            status.updateAndGet(st -> new ConnectionStatus(st.state(), st.since(), Optional.of(error)));
            onConnectorThread(this::reconcileSubscriptions, backoff.nextDelayMs());
        }
    }

    /** A periodic task that logs instead of dying: an escaping exception would cancel its schedule. */
    private Runnable guarded(Runnable task) {
        return () -> {
            try {
                task.run();
            } catch (RuntimeException | Error e) {
                errors.incrementAndGet();
                LOG.error("OPC UA connection {}: periodic task failed (a bug)", id, e);
            }
        };
    }

    /** Runs {@code task} on the connector thread, unless the connector is closed (then it is dropped). */
    private void onConnectorThread(Runnable task) {
        onConnectorThread(task, 0);
    }

    private ScheduledFuture<?> onConnectorThread(Runnable task, long delayMs) {
        if (closed) {
            return null;
        }
        try {
            return thread.schedule(task, delayMs, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            return null; // closed concurrently: nothing left to do
        }
    }

    private void markUp() {
        status.updateAndGet(s -> s.state() == ConnectionState.UP ? s
                : new ConnectionStatus(ConnectionState.UP, clock.instant(), s.lastError()));
    }

    private void markDown(String error) {
        subscribed = false;
        ConnectionStatus before = status.getAndUpdate(s -> new ConnectionStatus(ConnectionState.DOWN,
                s.state() == ConnectionState.DOWN ? s.since() : clock.instant(), Optional.of(error)));
        if (before.state() != ConnectionState.DOWN) {
            Instant now = clock.instant();
            for (TagPath path : tags.keySet()) {
                values.publishWithoutValue(path, Quality.BAD_NOT_CONNECTED, now);
            }
        }
    }

    // ---- values ----

    private void poll() {
        OpcUaClient current = client;
        if (current == null || closed || status.get().state() != ConnectionState.UP) {
            return;
        }
        readAll(current);
    }

    private void refreshAll() {
        OpcUaClient current = client;
        if (current != null) {
            readAll(current);
        }
    }

    private void readAll(OpcUaClient current) {
        poller.readAll(current, tagList);
    }

    private void onReadFailed(List<OpcUaTagConfig> failed, Exception e) {
        errors.incrementAndGet();
        if (closed || status.get().state() != ConnectionState.UP) {
            return; // the session loss already turned every tag BadNotConnected
        }
        Quality quality = QualityMapping.ofFailure(e);
        LOG.warn("OPC UA connection {}: reading {} tags failed: {}", id, failed.size(), FailureText.describe(e));
        Instant now = clock.instant();
        for (OpcUaTagConfig tag : failed) {
            values.publishWithoutValue(tag.tagPath(), quality, now);
        }
    }

    // ---- writes and browsing (any thread) ----

    @Override
    public CompletableFuture<TagWriteResult> write(TagPath tag, Object value) {
        OpcUaTagConfig configured = tags.get(tag);
        if (configured == null) {
            return CompletableFuture.failedFuture(new PermanentException("tag " + tag + " is not configured on OPC UA"
                    + " connection " + id + "; nothing was written", null));
        }
        if (!configured.writable()) {
            return CompletableFuture.failedFuture(new PermanentException("tag " + tag + " is not writable: set"
                    + " writable: true on it in connection " + id + " to allow writes; nothing was written", null));
        }
        try {
            configured.writeLimits().check(tag, value);
        } catch (WriteLimitException e) {
            return CompletableFuture.failedFuture(e);
        }
        OpcUaClient current = client;
        if (current == null || status.get().state() != ConnectionState.UP) {
            return CompletableFuture.failedFuture(new TransientException("OPC UA connection " + id + " is not connected"
                    + status.get().lastError().map(e -> " (" + e + ")").orElse("")
                    + "; the write to " + tag + " was not sent (writes are never buffered)"));
        }
        return writer.write(current, configured, value);
    }

    /**
     * The children of {@code nodeId} (such as {@code i=85}, the Objects folder) for the console's
     * lazy address-space browser: hierarchical forward references, with the data type of variables.
     * A blank id browses the Objects folder.
     * Fails with a {@link TransientException} while disconnected.
     */
    @Override
    public CompletableFuture<List<BrowseNode>> browse(String nodeId) {
        OpcUaClient current = client;
        if (current == null || status.get().state() != ConnectionState.UP) {
            return CompletableFuture.failedFuture(new TransientException("OPC UA connection " + id
                    + " is not connected; cannot browse " + nodeId));
        }
        NodeId parent;
        try {
            parent = nodeId == null || nodeId.isBlank() ? NodeIds.ObjectsFolder : NodeId.parse(nodeId);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(new PermanentException("\"" + nodeId + "\" is not a node id", e));
        }
        return new AddressSpaceBrowser(current).children(parent)
                .orTimeout(config.requestTimeoutMs(), TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        values.close();
        OpcUaClient current = client;
        client = null;
        if (current != null) {
            try {
                current.disconnectAsync().get(Math.min(config.requestTimeoutMs(), 5000), TimeUnit.MILLISECONDS);
            } catch (Exception e) {
                LOG.debug("OPC UA connection {}: disconnect did not complete: {}", id, FailureText.describe(e));
            }
        }
        thread.shutdownNow();
        try {
            thread.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
