package io.qubiq.connector.mqtt;

import io.qubiq.core.connector.DeviceConnector;
import io.qubiq.core.connector.TagWriteResult;
import io.qubiq.core.connector.WriteLimitException;
import io.qubiq.core.error.PermanentException;
import io.qubiq.core.error.TransientException;
import io.qubiq.core.error.UnknownOutcomeException;
import io.qubiq.core.event.DataLoss;
import io.qubiq.core.event.EventPublisher;
import io.qubiq.core.event.LossReason;
import io.qubiq.core.health.ConnectionState;
import io.qubiq.core.health.ConnectionStatus;
import io.qubiq.core.tag.Custody;
import io.qubiq.core.tag.CustodyReceipt;
import io.qubiq.core.tag.DataType;
import io.qubiq.core.tag.Quality;
import io.qubiq.core.tag.TagPath;
import io.qubiq.core.tag.TagPublisher;
import io.qubiq.core.tag.TagValue;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Subscribes to topics on one MQTT broker with the HiveMQ client and turns the messages into tag
 * values; publishes tag writes to command topics.
 *
 * <p><b>Connecting.</b> {@link #start} returns at once; the client connects in the background
 * with automatic reconnect ({@code reconnect_initial_ms} doubling to {@code reconnect_max_ms}, also
 * after a failed first attempt). On every CONNACK the status turns UP and {@link
 * ResubscribeOnReconnect} subscribes when the broker holds no session for us. When the connection
 * drops, the status turns DOWN with the cause and every tag the connector knows (fixed tags of the
 * configuration and every tag seen since start) is published Bad NotConnected, without a value;
 * values turn Good again with the next message (retained messages are redelivered on resubscribe).
 *
 * <p><b>Values.</b> Each message is matched against every subscription ({@link SubscriptionRoute}):
 * the topic becomes a tag path through the subscription's template ({@link TopicTemplate}) and the
 * payload a value ({@link PayloadDecoder}). A message that cannot become a value is counted and
 * reported per topic by the {@link MalformedPayloadCounter}, logged at WARN (rate-limited), and
 * never stops other messages. A message whose topic would create a tag beyond {@code max_dynamic_tags}
 * tags made from wildcard subscriptions is refused and counted ({@link DynamicTagLimit}).
 *
 * <p><b>Writes</b> publish to the tag's command topic and are never buffered: while disconnected
 * they fail at once with a {@link TransientException}; a tag that is not in {@code writable_tags}
 * or a value that cannot be encoded fails with a {@link PermanentException}, a value outside the tag's
 * {@code min}/{@code max} with a {@link WriteLimitException} (nothing sent either); no
 * acknowledgement within {@code write_timeout_ms} fails with an {@link UnknownOutcomeException}.
 *
 * <p><b>Acknowledgement.</b> A QoS 1 or 2 message is acknowledged to the broker only once the
 * connector took it (its values were accepted by the tag bus, or it was counted as malformed or
 * unmatched) and every durable subscriber that took one of its values released its custody: the
 * value is buffered, delivered or accounted for ({@link InboundFlow}, {@link CustodyReceipt}). A
 * message that arrives while the connector closes, or whose custody is still held when the gateway
 * stops or dies, is left unacknowledged, so a persistent session gets it again. A message tap
 * with a {@link KeepingListener} (a pipeline's MQTT trigger) holds a share too; a plain tap takes
 * none (acknowledged once its listener returned).
 *
 * <p><b>Threading.</b> The HiveMQ client delivers messages and connection events on its own Netty
 * threads. Messages are decoded and published there, inline, never queued behind a scheduler (why:
 * {@link InboundFlow}); the publisher is thread-safe and never blocks; the counters are atomic.
 * Connection events are handed to the connector thread ({@code qubiq-mqtt-<id>}), which owns {@link ResubscribeOnReconnect}. {@link #status()}, {@link #stats()} and {@link #write}
 * may be called from any thread.
 */
public final class MqttConnector implements DeviceConnector {

    private static final Logger LOG = LoggerFactory.getLogger(MqttConnector.class);
    private static final long MALFORMED_LOG_INTERVAL_MS = 10_000;

    private final String id;
    private final MqttConnectionConfig config;
    private final String clientId;
    private final Clock clock;
    private final EventPublisher losses;
    private final List<SubscriptionRoute> routes;
    private final Map<TagPath, MqttWritableTagConfig> writable = new LinkedHashMap<>();
    private final Map<TagPath, DataType> knownTags = new ConcurrentHashMap<>();
    private final MalformedPayloadCounter malformed;
    private final DynamicTagLimit tagLimit;
    private final List<MessageTap> taps = new java.util.concurrent.CopyOnWriteArrayList<>();
    private ResubscribeOnReconnect resubscriber;
    private final ScheduledExecutorService thread;
    private final AtomicReference<ConnectionStatus> status;
    private final AtomicLong valuesReceived = new AtomicLong();
    private final AtomicLong unmatched = new AtomicLong();
    private final AtomicLong reconnects = new AtomicLong();
    private final AtomicLong resubscribes = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();
    private final AtomicLong disconnects = new AtomicLong();
    private volatile TagPublisher publisher;
    private volatile BrokerClient client;
    private volatile boolean closed;
    private boolean everConnected;

    /** A connector whose client id, when not configured, is derived from {@code gatewayId} and {@code id}. */
    public MqttConnector(String gatewayId, String id, MqttConnectionConfig config) {
        this(gatewayId, id, config, Clock.systemUTC());
    }

    public MqttConnector(String gatewayId, String id, MqttConnectionConfig config, Clock clock) {
        this(gatewayId, id, config, clock, EventPublisher.none());
    }

    /** @param losses where each message that cannot become a tag value is reported as a {@code malformed_payload} loss */
    public MqttConnector(String gatewayId, String id, MqttConnectionConfig config, Clock clock, EventPublisher losses) {
        this.losses = losses;
        this.id = id;
        this.config = config;
        this.clientId = config.effectiveClientId(gatewayId, id);
        this.clock = clock;
        this.routes = config.subscriptions().stream().map(SubscriptionRoute::new).toList();
        for (SubscriptionRoute route : routes) {
            route.fixedTag().ifPresent(tag -> knownTags.put(tag, route.config().dataType()));
        }
        config.writableTags().forEach(tag -> writable.put(tag.tagPath(), tag));
        java.util.Set<TagPath> configured = new java.util.HashSet<>(knownTags.keySet());
        configured.addAll(writable.keySet());
        this.tagLimit = new DynamicTagLimit(id, config.maxDynamicTags(), configured, losses, clock);
        this.malformed = new MalformedPayloadCounter(id, clock, MALFORMED_LOG_INTERVAL_MS);
        this.thread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "qubiq-mqtt-" + id);
            t.setDaemon(true);
            return t;
        });
        this.status = new AtomicReference<>(ConnectionStatus.unknown(clock.instant()));
    }

    @Override
    public String id() {
        return id;
    }

    /** The MQTT client identifier this connector connects with. */
    public String clientId() {
        return clientId;
    }

    @Override
    public void start(TagPublisher target) {
        if (publisher != null) {
            throw new IllegalStateException("MQTT connection " + id + " was already started");
        }
        this.publisher = target;
        List<String> tapFilters = taps.stream().map(MessageTap::topicFilter).distinct().toList();
        this.resubscriber = new ResubscribeOnReconnect(id, config.subscriptions(), tapFilters);
        onConnectorThread(this::connect);
    }

    /**
     * Hears every message whose topic matches {@code topicFilter}, raw, beside the tag routes (a
     * pipeline's MQTT trigger). The filter is subscribed together with the configured ones, so a tap
     * must be added before {@link #start}. {@code listener} is called on the client's thread, one
     * message at a time; it must not block for long. Close the returned handle to stop hearing.
     *
     * @throws IllegalStateException when the connector has already started
     */
    public AutoCloseable tap(String topicFilter, java.util.function.BiConsumer<String, byte[]> listener) {
        return add(new MessageTap(topicFilter, listener));
    }

    /**
     * A message tap listener that keeps what it hears durably (a pipeline's MQTT trigger): with each
     * message it gets the message's custody, a share of its receipt for QoS 1 and 2 ({@link
     * Custody#NONE} for QoS 0), and releases it once what it made of the message is buffered,
     * delivered or accounted for (the rule of {@link Custody}); the message is acknowledged only then.
     * Called on the client's thread; it must not block.
     */
    @FunctionalInterface
    public interface KeepingListener {
        void accept(String topic, byte[] payload, Custody custody);
    }

    /** As {@link #tap(String, java.util.function.BiConsumer)}, for a listener that holds the messages' custody. */
    public AutoCloseable tap(String topicFilter, KeepingListener listener) {
        return add(new MessageTap(topicFilter, listener));
    }

    private AutoCloseable add(MessageTap tap) {
        if (publisher != null) {
            throw new IllegalStateException("MQTT connection " + id + ": add message taps before the connection starts");
        }
        taps.add(tap);
        return () -> {
            tap.close();
            taps.remove(tap);
        };
    }

    @Override
    public ConnectionStatus status() {
        return status.get();
    }

    /** Connected, and the broker granted the topic filters (SUBACK) or holds them in its session. */
    @Override
    public boolean subscribed() {
        ResubscribeOnReconnect current = resubscriber; // null until start
        return !closed && current != null && status.get().state() == ConnectionState.UP && current.granted();
    }

    /** The counters of {@link #stats()} for the connection health API, by snake_case name. */
    @Override
    public Map<String, Long> counters() {
        MqttStats stats = stats();
        Map<String, Long> counters = new LinkedHashMap<>();
        counters.put("values_received", stats.valuesReceived());
        counters.put("malformed_payloads", stats.malformedPayloads());
        counters.put("unmatched_messages", stats.unmatchedMessages());
        counters.put("reconnects", stats.reconnects());
        counters.put("resubscribes", stats.resubscribes());
        counters.put("errors", stats.errors());
        counters.put("disconnects", stats.disconnects());
        counters.put("dynamic_tags", tagLimit.admittedCount());
        counters.put("tag_limit_refusals", tagLimit.refusedCount());
        return counters;
    }

    /** {@code dynamicTagLimit: ...} while messages for new topics are refused at {@code max_dynamic_tags}. */
    @Override
    public List<String> warnings() {
        return tagLimit.warning().map(List::of).orElse(List.of());
    }

    public MqttStats stats() {
        return new MqttStats(valuesReceived.get(), malformed.total(), malformed.byTopic(), unmatched.get(),
                reconnects.get(), resubscribes.get(), errors.get(), disconnects.get());
    }

    // ---- connection (connector thread) ----

    private void connect() {
        if (closed) {
            return;
        }
        client = BrokerClients.create(config, clientId, new BrokerClient.Events() {
            @Override
            public void connected(boolean sessionPresent) {
                onConnectorThread(() -> onConnected(sessionPresent));
            }

            @Override
            public void disconnected(Throwable cause) {
                onDisconnected(cause);
            }

            @Override
            public boolean message(String topic, byte[] payload, CustodyReceipt receipt) {
                return onMessage(topic, payload, receipt);
            }

            @Override
            public String connection() {
                return id;
            }
        });
        if (closed) {
            client.disconnect();
            return;
        }
        LOG.info("MQTT connection {}: connecting to {}:{} as {} ({}, {} session)", id, config.endpoint().host(),
                config.endpoint().port(), clientId, config.protocol().name().toLowerCase(Locale.ROOT),
                config.cleanSession() ? "clean" : "persistent");
        client.connect().whenComplete((sessionPresent, error) -> {
            if (error != null) {
                LOG.debug("MQTT connection {}: first attempt failed; the client keeps retrying", id);
            }
        });
    }

    private void onConnected(boolean sessionPresent) {
        BrokerClient current = client;
        if (closed || current == null || !current.connected()) {
            return; // dropped again before this ran: the disconnect already set DOWN; the next CONNACK comes
        }
        if (everConnected) {
            reconnects.incrementAndGet();
        }
        everConnected = true;
        LOG.info("MQTT connection {}: connected to {}:{} (session {})", id, config.endpoint().host(),
                config.endpoint().port(), sessionPresent ? "present" : "new");
        status.updateAndGet(s -> s.state() == ConnectionState.UP ? s
                : new ConnectionStatus(ConnectionState.UP, clock.instant(), s.lastError()));
        resubscriber.onConnected(current, sessionPresent, outcome -> onConnectorThread(() -> {
            if (outcome.failure().isPresent()) {
                resubscriber.markFailed();
                recordError("subscribing failed: " + describe(outcome.failure().get())
                        + "; retrying at the next connection");
                return;
            }
            resubscriber.markGranted();
            LOG.info("MQTT connection {}: the broker granted {} of {} subscriptions", id,
                    config.subscriptions().size() - outcome.refusals().size(), config.subscriptions().size());
            if (outcome.resubscribe()) {
                resubscribes.incrementAndGet();
            }
            for (String refusal : outcome.refusals()) {
                recordError(refusal);
            }
        }));
    }

    /** Runs on the client's thread: status and Bad qualities must not wait for the connector thread. */
    private void onDisconnected(Throwable cause) {
        if (closed) {
            return;
        }
        errors.incrementAndGet();
        String message = "connection to " + config.endpoint().host() + ":" + config.endpoint().port()
                + " lost or refused: " + describe(cause);
        ConnectionStatus before = status.getAndUpdate(s -> new ConnectionStatus(ConnectionState.DOWN,
                s.state() == ConnectionState.DOWN ? s.since() : clock.instant(), Optional.of(message)));
        if (before.state() == ConnectionState.UP) {
            disconnects.incrementAndGet();
        }
        if (before.state() != ConnectionState.DOWN) {
            LOG.warn("MQTT connection {}: {}; reconnecting", id, message);
            Instant now = clock.instant();
            knownTags.forEach((tag, type) -> publish(TagValue.withoutValue(tag, type, Quality.BAD_NOT_CONNECTED, now)));
        } else {
            LOG.debug("MQTT connection {}: {}", id, message);
        }
    }

    private void recordError(String message) {
        errors.incrementAndGet();
        LOG.warn("MQTT connection {}: {}", id, message);
        status.updateAndGet(s -> new ConnectionStatus(s.state(), s.since(), Optional.of(message)));
    }

    // ---- messages (client threads) ----

    /**
     * Turns one message into tag values; returns whether the gateway took it (then the client
     * acknowledges it to the broker once {@code receipt}, when there is one, completed): every value
     * was accepted by the tag bus, or the message was counted as malformed or unmatched. False while
     * closing or when the tag bus refused a value.
     */
    private boolean onMessage(String topic, byte[] payload, CustodyReceipt receipt) {
        if (closed) {
            return false;
        }
        Instant receivedAt = clock.instant();
        boolean matched = false;
        for (MessageTap tap : taps) {
            try {
                matched |= tap.offer(topic, payload, receipt);
            } catch (RuntimeException e) {
                matched = true;
                LOG.warn("MQTT connection {}: a message tap on {} failed: {}", id, tap.topicFilter(), e.toString());
            }
        }
        for (SubscriptionRoute route : routes) {
            Optional<List<String>> captured = route.match(topic);
            if (captured.isEmpty()) {
                continue;
            }
            matched = true;
            try {
                TagValue value = route.decode(captured.get(), payload, receivedAt);
                if (!tagLimit.admit(value.path(), topic, payload.length)) {
                    continue; // refused and counted: the message is taken (acknowledged), its value not kept
                }
                knownTags.put(value.path(), value.type());
                if (!publish(value, receipt)) {
                    return false;
                }
                valuesReceived.incrementAndGet();
            } catch (MalformedPayloadException e) {
                malformed.record(topic, e.getMessage());
                reportMalformed(topic, payload, receivedAt, e.getMessage());
            } catch (RuntimeException e) {
                malformed.record(topic, "unexpected " + e);
                reportMalformed(topic, payload, receivedAt, "unexpected " + e);
                LOG.error("MQTT connection {}: decoding a message on {} failed (a bug)", id, topic, e);
            }
        }
        if (!matched) {
            unmatched.incrementAndGet();
            LOG.debug("MQTT connection {}: no subscription matches topic {}", id, topic);
        }
        return true;
    }

    /** Hands {@code value} to the tag bus; false when it was not accepted (closing, or the bus is stopped). */
    private boolean publish(TagValue value) {
        return publish(value, null);
    }

    /** As {@link #publish(TagValue)}, with the message's receipt when its source waits for custody (QoS 1, 2). */
    private boolean publish(TagValue value, CustodyReceipt receipt) {
        TagPublisher target = publisher;
        if (target == null || closed) {
            return false;
        }
        try {
            if (receipt == null) {
                target.publish(value);
            } else {
                target.publish(value, receipt);
            }
            return true;
        } catch (IllegalStateException e) {
            LOG.debug("MQTT connection {}: the tag bus did not accept {}: {}", id, value.path(), e.getMessage());
            return false;
        }
    }

    // ---- writes (any thread) ----

    @Override
    public CompletableFuture<TagWriteResult> write(TagPath tag, Object value) {
        MqttWritableTagConfig target = writable.get(tag);
        if (target == null) {
            return CompletableFuture.failedFuture(new PermanentException("tag " + tag + " is not writable on MQTT"
                    + " connection " + id + ": list it under writable_tags with a command_topic to allow writes;"
                    + " nothing was published", null));
        }
        try {
            target.limits().check(tag, value);
        } catch (WriteLimitException e) {
            return CompletableFuture.failedFuture(e);
        }
        byte[] payload;
        try {
            payload = CommandEncoder.encode(target.payload(), value);
        } catch (IllegalArgumentException e) {
            return CompletableFuture.failedFuture(new PermanentException("tag " + tag + ": " + e.getMessage()
                    + "; nothing was published", e));
        }
        BrokerClient current = client;
        if (closed || current == null || !current.connected() || status.get().state() != ConnectionState.UP) {
            return CompletableFuture.failedFuture(new TransientException("MQTT connection " + id + " is not connected"
                    + status.get().lastError().map(e -> " (" + e + ")").orElse("")
                    + "; the write to " + tag + " was not published (writes are never buffered)"));
        }
        String topic = target.resolvedCommandTopic();
        return current.publish(topic, payload, target.qos(), target.retain())
                .orTimeout(config.writeTimeoutMs(), TimeUnit.MILLISECONDS)
                .handle((refusal, error) -> {
                    if (error != null) {
                        Throwable cause = error instanceof CompletionException && error.getCause() != null
                                ? error.getCause() : error;
                        String what = cause instanceof TimeoutException
                                ? "no acknowledgement within " + config.writeTimeoutMs() + " ms"
                                : describe(cause);
                        throw new CompletionException(new UnknownOutcomeException("the write to " + tag + " on "
                                + topic + " may or may not have reached the broker: " + what, cause));
                    }
                    if (refusal.isPresent()) {
                        return new TagWriteResult(tag, Quality.BAD, "the broker refused the publish to " + topic
                                + ": " + refusal.get());
                    }
                    return new TagWriteResult(tag, Quality.GOOD, target.qos() == 0
                            ? "published to " + topic + " (QoS 0: sent, not acknowledged)"
                            : "published to " + topic + " and acknowledged by the broker (QoS " + target.qos() + ")");
                });
    }

    // ---- lifecycle ----

    private void onConnectorThread(Runnable task) {
        if (closed) {
            return;
        }
        try {
            thread.execute(() -> {
                try {
                    task.run();
                } catch (RuntimeException e) {
                    errors.incrementAndGet();
                    LOG.error("MQTT connection {}: connector task failed (a bug)", id, e);
                }
            });
        } catch (RejectedExecutionException e) {
            // closed concurrently
        }
    }

    private static String describe(Throwable error) {
        Throwable cause = error;
        while (cause instanceof CompletionException && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause == null) {
            return "unknown cause";
        }
        String message = cause.getMessage();
        return cause.getClass().getSimpleName() + (message == null || message.isBlank() ? "" : ": " + message);
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        BrokerClient current = client;
        client = null;
        if (current != null) {
            try {
                current.disconnect().get(5, TimeUnit.SECONDS);
            } catch (Exception e) {
                LOG.debug("MQTT connection {}: disconnect did not complete: {}", id, describe(e));
            }
        }
        thread.shutdownNow();
        try {
            thread.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        tagLimit.close();
    }

    private void reportMalformed(String topic, byte[] payload, Instant receivedAt, String error) {
        losses.lost(DataLoss.of(receivedAt, "connector", id, LossReason.MALFORMED_PAYLOAD, 1, payload.length,
                "message on " + topic + " is not a tag value: " + error));
    }
}
