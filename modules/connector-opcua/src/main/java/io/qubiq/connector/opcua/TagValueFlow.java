package io.qubiq.connector.opcua;

import io.qubiq.core.tag.DataType;
import io.qubiq.core.tag.Quality;
import io.qubiq.core.tag.TagPath;
import io.qubiq.core.tag.TagPublisher;
import io.qubiq.core.tag.TagValue;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;

/**
 * The values side of one OPC UA connection: turns data values into tag values ({@link
 * TagValueShaper}), drops repeated notifications, passes them through the {@link StaleTagWatch},
 * remembers the last value and raw type of every tag, and publishes to the tag bus. Also publishes
 * the value-less qualities the connector decides on (BadNotConnected, a refused item's code).
 *
 * <p><b>Repeats.</b> In subscription mode a notification identical to the value last published
 * for its tag (same value, quality and source time) is a second copy of the same change, which a
 * server can send after a republish; it is dropped and counted. Polling republishes every read.
 *
 * <p>Threading: {@link #onValue} runs on Milo's delivery threads and the connector thread (reads),
 * the rest on any thread; the per-tag state is a concurrent map and the counters are atomic.
 * Nothing is published before {@link #start} or after {@link #close}.
 */
final class TagValueFlow implements TagDataListener {

    /** What is known about one tag: its last published value and the Java type Milo read it as. */
    private record TagState(TagValue last, Optional<Class<?>> rawType) {
    }

    private final Map<TagPath, TagState> state = new ConcurrentHashMap<>();
    private final StaleTagWatch staleWatch;
    private final boolean dropRepeats;
    private final Clock clock;
    private final AtomicLong received = new AtomicLong();
    private final AtomicLong repeatsDropped = new AtomicLong();
    private volatile TagPublisher publisher;
    private final ServerQueueOverflows overflows;
    private volatile boolean closed;

    TagValueFlow(Duration staleAfter, AcquisitionMode mode, Clock clock) {
        this(staleAfter, mode, clock, null);
    }

    /** @param overflows counts values the server flagged Overflow; null: nobody counts them */
    TagValueFlow(Duration staleAfter, AcquisitionMode mode, Clock clock, ServerQueueOverflows overflows) {
        this.overflows = overflows;
        this.staleWatch = new StaleTagWatch(staleAfter);
        this.dropRepeats = mode == AcquisitionMode.SUBSCRIPTION;
        this.clock = clock;
    }

    void start(TagPublisher target) {
        this.publisher = target;
    }

    void close() {
        closed = true;
    }

    boolean staleWatchEnabled() {
        return staleWatch.enabled();
    }

    /**
     * The hot path (up to 100,000 values/s): shape, drop a repeat, stale watch, remember, publish.
     * One map read and one write per value; the path comes resolved.
     */
    @Override
    public void onValue(OpcUaTagConfig tag, TagPath path, DataValue value) {
        received.incrementAndGet();
        if (overflows != null) {
            overflows.inspect(path, value);
        }
        Instant now = clock.instant();
        TagState known = state.get(path);
        TagValue shaped = TagValueShaper.shape(tag, path, value, known == null ? DataType.FLOAT64 : known.last().type(),
                now);
        if (dropRepeats && known != null && sameChange(known.last(), shaped)) {
            repeatsDropped.incrementAndGet();
            return;
        }
        Optional<Class<?>> rawType = TagValueShaper.rawType(value, known == null ? Optional.empty() : known.rawType());
        TagValue admitted = staleWatch.admit(shaped, now);
        TagPublisher target = publisher;
        if (target != null && !closed) {
            state.put(path, new TagState(admitted, rawType));
            target.publish(admitted);
        }
    }

    private static boolean sameChange(TagValue last, TagValue next) {
        return last.sourceTime().equals(next.sourceTime()) && last.quality().equals(next.quality())
                && Objects.equals(last.value(), next.value());
    }

    /** Publishes the values that turned stale since the last sweep. */
    void sweepStale() {
        for (TagValue stale : staleWatch.sweep(clock.instant())) {
            publish(stale);
        }
    }

    /** Publishes {@code path} without a value, with {@code quality}, in the type it last had. */
    void publishWithoutValue(TagPath path, Quality quality, Instant at) {
        publish(TagValue.withoutValue(path, typeOf(path), quality, at));
    }

    private void publish(TagValue value) {
        TagPublisher target = publisher;
        if (target != null && !closed) {
            state.compute(value.path(), (p, s) -> new TagState(value, s == null ? Optional.empty() : s.rawType()));
            target.publish(value);
        }
    }

    /** The tag's type from its last value; float64 for a tag that never delivered one. */
    private DataType typeOf(TagPath path) {
        TagState known = state.get(path);
        return known == null ? DataType.FLOAT64 : known.last().type();
    }

    /** The Java type Milo last read the tag's value as, which a write must match. */
    Optional<Class<?>> rawType(TagPath path) {
        TagState known = state.get(path);
        return known == null ? Optional.empty() : known.rawType();
    }

    long received() {
        return received.get();
    }

    long repeatsDropped() {
        return repeatsDropped.get();
    }
}
