package io.qubiq.connector.mqtt;

import io.qubiq.core.event.DataLoss;
import io.qubiq.core.event.DynamicTagLimitAlarm;
import io.qubiq.core.event.EventPublisher;
import io.qubiq.core.event.LossReason;
import io.qubiq.core.tag.TagPath;
import java.time.Clock;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The limit on the tags one MQTT connection creates from topics its wildcard subscriptions match
 * ({@code max_dynamic_tags}, issue 23 item 8: 20,000 distinct topics once made 20,000 tags).
 *
 * <p><b>Owns</b> the set of tags admitted since the connector started and the count of refusals.
 * Configured tags (the tag of a subscription without wildcards, every writable tag) are admitted
 * always and never counted. A new tag is admitted while fewer than the limit were; past it, the
 * message that would have made it is refused: counted, reported as a {@link
 * LossReason#DYNAMIC_TAG_LIMIT} loss (the loss ledger sums them per minute), and the first refusal
 * logs one WARN line and raises a {@link DynamicTagLimitAlarm} naming the connection and the limit;
 * {@link #close} clears it. Tags once admitted stay admitted until the connector stops.
 *
 * <p><b>Invariant:</b> at most {@code limit} dynamic tags are ever admitted, also under concurrent
 * messages (the admission of a new tag is serialized; a known tag's check is a lock-free lookup).
 *
 * <p>Threading: {@link #admit} from the client's threads, the rest from any thread.
 */
final class DynamicTagLimit {

    private static final Logger LOG = LoggerFactory.getLogger(DynamicTagLimit.class);

    private final String connection;
    private final int limit;
    private final Set<TagPath> configured;
    private final EventPublisher events;
    private final Clock clock;
    private final Set<TagPath> admitted = ConcurrentHashMap.newKeySet();
    private final AtomicLong refused = new AtomicLong();
    private volatile boolean alarmed;

    DynamicTagLimit(String connection, int limit, Set<TagPath> configured, EventPublisher events, Clock clock) {
        this.connection = connection;
        this.limit = limit;
        this.configured = Set.copyOf(configured);
        this.events = events;
        this.clock = clock;
    }

    /**
     * Whether a message on {@code topic} ({@code bytes} long) may publish a value of {@code tag}; when
     * not, the refusal is counted and reported here.
     */
    boolean admit(TagPath tag, String topic, long bytes) {
        if (configured.contains(tag) || admitted.contains(tag)) {
            return true;
        }
        synchronized (this) {
            if (admitted.contains(tag)) {
                return true;
            }
            if (admitted.size() < limit) {
                admitted.add(tag);
                return true;
            }
        }
        refuse(tag, topic, bytes);
        return false;
    }

    private void refuse(TagPath tag, String rawTopic, long bytes) {
        long total = refused.incrementAndGet();
        String topic = rawTopic.replace("\r", "\\r").replace("\n", "\\n"); // a topic never forges a log line
        events.lost(DataLoss.of(clock.instant(), "connector", connection, LossReason.DYNAMIC_TAG_LIMIT, 1,
                Math.max(bytes, 0), "message on " + topic + " for new tag " + tag + " refused: MQTT connection "
                        + connection + " has reached max_dynamic_tags (" + limit + ")"));
        if (!alarmed) {
            synchronized (this) {
                if (alarmed) {
                    return;
                }
                alarmed = true;
            }
            LOG.warn("MQTT connection {}: reached max_dynamic_tags ({}): messages on topics that would create new"
                    + " tags are refused from now on (first: {} for tag {}); each is counted in tag_limit_refusals"
                    + " and the loss ledger. Check what publishes them, or raise max_dynamic_tags", connection, limit,
                    topic, tag);
            events.alarm(new DynamicTagLimitAlarm(connection, true, clock.instant(), limit, total));
        }
    }

    /** Dynamic tags admitted so far. */
    long admittedCount() {
        return admitted.size();
    }

    /** Messages refused so far. */
    long refusedCount() {
        return refused.get();
    }

    /** The console's warning while messages are being refused, as {@code dynamicTagLimit: ...}. */
    Optional<String> warning() {
        long count = refused.get();
        return count == 0 ? Optional.empty() : Optional.of("dynamicTagLimit: " + count + " message(s) for new topics"
                + " refused at max_dynamic_tags (" + limit + " tags from wildcard subscriptions); check what"
                + " publishes them, or raise max_dynamic_tags");
    }

    /** Clears the alarm, if raised: the connector stops and its tags with it. */
    void close() {
        if (alarmed) {
            events.alarm(new DynamicTagLimitAlarm(connection, false, clock.instant(), limit, refused.get()));
        }
    }
}
