package io.qubiq.historian;

import io.qubiq.core.tag.TagPath;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The most recent stored samples of each tag, in memory: at most {@code samplesPerTag} per tag,
 * the oldest evicted first, and room for at most {@code maxSamples} for all tags together (a
 * {@link TailBudget}: once it is used up, no tag's tail grows further). History queries merge it
 * with QuestDB's rows, so a trend shows a sample the moment the historian accepts it, before its
 * batch reaches QuestDB.
 *
 * <p>Each tag's samples live in a {@link SampleRing} of primitive arrays, not as sample objects:
 * a full tail (300,000 samples for 300 tags at the default) would otherwise be hundreds of
 * thousands of objects that every young collection copies while the historian writes. {@link
 * #samples} rebuilds sample objects, equal to those added, for the few a query asks for.
 *
 * <p>Threading: safe for one writer at a time (the {@link StorageFilter}, which adds what it stores
 * under its own lock) and any number of concurrent readers; each tag's samples are guarded by
 * their own lock.
 */
public final class LiveTail {

    private final int samplesPerTag;
    private final TailBudget budget;
    private final ConcurrentHashMap<TagPath, SampleRing> tails = new ConcurrentHashMap<>();

    /** A tail bounded per tag only. */
    public LiveTail(int samplesPerTag) {
        this(samplesPerTag, TailBudget.unlimited());
    }

    /**
     * A tail of at most {@code samplesPerTag} samples per tag and, once {@code maxSamples} are
     * allocated for all tags together, no more growth (see {@link TailBudget}).
     */
    public LiveTail(int samplesPerTag, long maxSamples) {
        this(samplesPerTag, new TailBudget(maxSamples));
    }

    private LiveTail(int samplesPerTag, TailBudget budget) {
        if (samplesPerTag < 0) {
            throw new IllegalArgumentException("samplesPerTag must not be negative, got " + samplesPerTag);
        }
        this.samplesPerTag = samplesPerTag;
        this.budget = budget;
    }

    public void add(HistorySample sample) {
        add(ring(sample.tag()), sample);
    }

    /**
     * The ring that keeps {@code tag}'s samples, made on first need, or null when the tail keeps
     * nothing: for a writer that looks it up once per tag and keeps it (the storage filter keeps
     * it in its per-tag state), then adds with {@link #add(SampleRing, HistorySample)}.
     */
    SampleRing ring(TagPath tag) {
        if (samplesPerTag == 0) {
            return null;
        }
        SampleRing tail = tails.get(tag);
        return tail != null ? tail : tails.computeIfAbsent(tag, t -> new SampleRing(t, samplesPerTag, budget));
    }

    /** Adds {@code sample} to {@code ring} (from {@link #ring}; null keeps nothing). */
    static void add(SampleRing ring, HistorySample sample) {
        if (ring == null) {
            return;
        }
        synchronized (ring) {
            ring.add(sample);
        }
    }

    /** The tag's samples with {@code from <= ts < to}, in the order they were added. */
    public List<HistorySample> samples(TagPath tag, Instant from, Instant to) {
        SampleRing tail = tails.get(tag);
        if (tail == null) {
            return List.of();
        }
        List<HistorySample> out = new ArrayList<>();
        synchronized (tail) {
            tail.copy(from, to, out);
        }
        return out;
    }

    public int tags() {
        return tails.size();
    }

    /** Samples the tail has room for, all tags together: what its memory is sized by. */
    public long capacityAllocated() {
        return budget.allocated();
    }

    public int samplesPerTag() {
        return samplesPerTag;
    }
}
