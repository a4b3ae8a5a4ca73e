package io.qubiq.connector.mqtt;

import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counts malformed messages per topic, keeps the last error of each, and logs them at WARN at most
 * once per topic every {@code logIntervalMs}, saying how many were not logged in between. A
 * malformed message is never silently dropped: it is counted here and visible in {@link MqttStats}.
 * Wildcard subscriptions can see unbounded topic names, so at most {@value #MAX_TOPICS} topics are
 * tracked; the rest share the entry {@value #OTHER_TOPICS}. Safe for concurrent callers.
 */
final class MalformedPayloadCounter {

    static final int MAX_TOPICS = 1000;
    static final String OTHER_TOPICS = "(other topics)";

    private static final Logger LOG = LoggerFactory.getLogger(MalformedPayloadCounter.class);

    private static final class TopicEntry {
        final AtomicLong count = new AtomicLong();
        final AtomicLong unlogged = new AtomicLong();
        volatile String lastError = "";
        volatile Instant lastAt = Instant.EPOCH;
        volatile long lastLoggedMs = Long.MIN_VALUE;
    }

    private final String connectionId;
    private final Clock clock;
    private final long logIntervalMs;
    private final Map<String, TopicEntry> topics = new ConcurrentHashMap<>();
    private final AtomicLong total = new AtomicLong();

    MalformedPayloadCounter(String connectionId, Clock clock, long logIntervalMs) {
        this.connectionId = connectionId;
        this.clock = clock;
        this.logIntervalMs = logIntervalMs;
    }

    void record(String topic, String error) {
        Instant now = clock.instant();
        String key = topics.containsKey(topic) || topics.size() < MAX_TOPICS ? topic : OTHER_TOPICS;
        TopicEntry entry = topics.computeIfAbsent(key, k -> new TopicEntry());
        long count = entry.count.incrementAndGet();
        entry.lastError = error;
        entry.lastAt = now;
        total.incrementAndGet();
        long nowMs = now.toEpochMilli();
        synchronized (entry) {
            if (entry.lastLoggedMs != Long.MIN_VALUE && nowMs - entry.lastLoggedMs < logIntervalMs) {
                entry.unlogged.incrementAndGet();
                return;
            }
            entry.lastLoggedMs = nowMs;
        }
        long skipped = entry.unlogged.getAndSet(0);
        LOG.warn("MQTT connection {}: malformed message on {} ({} so far{}): {}", connectionId, topic, count,
                skipped > 0 ? ", " + skipped + " more since the last report" : "", error);
    }

    long total() {
        return total.get();
    }

    Map<String, MalformedTopicStats> byTopic() {
        Map<String, MalformedTopicStats> out = new TreeMap<>();
        topics.forEach((topic, e) -> out.put(topic, new MalformedTopicStats(e.count.get(), e.lastError, e.lastAt)));
        return out;
    }
}
