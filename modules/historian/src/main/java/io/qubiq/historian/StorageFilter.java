package io.qubiq.historian;

import io.qubiq.tagbus.TagPattern;
import io.qubiq.core.tag.TagPath;
import io.qubiq.core.tag.TagValue;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Decides which samples of each tag the historian stores, by the first {@link StorageRule} whose
 * pattern matches the tag (else the default rule):
 * <ul>
 *   <li><b>On change</b>: a sample is significant when its quality, type or presence of a value
 *       differs from the last stored sample, or its value does: beyond the absolute deadband, beyond
 *       the percentage of the last stored value's magnitude, or (without a deadband, and for
 *       non-numeric values) at all. <b>Always</b>: every sample is significant.
 *   <li><b>Minimum interval</b>: a significant sample that comes sooner than {@code min_interval_ms}
 *       after the last stored one is held back; a later significant sample replaces it, and
 *       {@link #due} releases the held-back one once the interval has passed. A sample no longer
 *       significant against the last stored one discards what was held back.
 *   <li><b>Heartbeat</b>: {@link #due} re-stores the last stored sample of a tag quiet for
 *       {@code max_interval_ms}, under the current time (its source and server times kept).
 * </ul>
 * Intervals are measured on the injected clock, at the moment a sample is offered, not on the
 * samples' own timestamps, so a device clock that drifts does not disturb them.
 *
 * <p>Every sample the filter decides to store is also kept in the {@link LiveTail} given to it:
 * the filter looks each tag up once per value anyway, and keeps the tag's ring of the tail in the
 * same per-tag state, so storing a sample costs no second lookup.
 *
 * <p>Threading: {@link #offer}, {@link #offerAll} and {@link #due} may be called from different
 * threads; every call holds the filter's lock ({@link #offerAll} once for the whole batch).
 */
public final class StorageFilter {

    private final List<Rule> rules;
    private final Rule defaultRule;
    private final Clock clock;
    private final LiveTail liveTail;
    private final Map<TagPath, TagState> states = new HashMap<>();

    private record Rule(TagPattern pattern, StorageRule options) {
    }

    private static final class TagState {
        final StorageRule rule;
        /** The tag's ring in the live tail; null when the tail keeps nothing. */
        final SampleRing tail;
        HistorySample lastStored;
        Instant lastStoredAt;
        HistorySample heldBack;

        TagState(StorageRule rule, SampleRing tail) {
            this.rule = rule;
            this.tail = tail;
        }
    }

    /** A filter that keeps its stored samples in {@code liveTail}. */
    public StorageFilter(StorageRule defaultRule, List<StorageRule> rules, Clock clock, LiveTail liveTail) {
        this.defaultRule = new Rule(TagPattern.compile("**"), Objects.requireNonNull(defaultRule, "defaultRule"));
        this.rules = rules.stream().map(r -> new Rule(TagPattern.compile(r.tags()), r)).toList();
        this.clock = Objects.requireNonNull(clock, "clock");
        this.liveTail = Objects.requireNonNull(liveTail, "liveTail");
    }

    /** A filter without a live tail. */
    public StorageFilter(StorageRule defaultRule, List<StorageRule> rules, Clock clock) {
        this(defaultRule, rules, clock, new LiveTail(0));
    }

    public static StorageFilter of(HistorianConfig config, Clock clock, LiveTail liveTail) {
        return new StorageFilter(config.defaultRule(), config.rules(), clock, liveTail);
    }

    /** The rule that applies to {@code tag}. */
    public StorageRule ruleFor(TagPath tag) {
        for (Rule rule : rules) {
            if (rule.pattern.matches(tag)) {
                return rule.options;
            }
        }
        return defaultRule.options;
    }

    /** The sample to store for {@code value} now, or empty when it is filtered out or held back. */
    public Optional<HistorySample> offer(TagValue value) {
        return offer(value, clock.instant());
    }

    /**
     * As {@link #offer(TagValue)}, with the clock read by the caller: a consumer handed a batch of
     * values at once reads it once for the batch.
     */
    public synchronized Optional<HistorySample> offer(TagValue value, Instant now) {
        return Optional.ofNullable(decide(value, now));
    }

    /**
     * Offers every value of a batch, in order, at {@code now}, and adds the samples to store to
     * {@code out}: what {@link #offer(TagValue, Instant)} does for each, under one lock.
     */
    public synchronized void offerAll(List<TagValue> values, Instant now, List<HistorySample> out) {
        for (TagValue value : values) {
            HistorySample sample = decide(value, now);
            if (sample != null) {
                out.add(sample);
            }
        }
    }

    /** The sample to store for {@code value}, or null; the caller holds the lock. */
    private HistorySample decide(TagValue value, Instant now) {
        TagState state = states.get(value.path());
        if (state == null) {
            state = new TagState(ruleFor(value.path()), liveTail.ring(value.path()));
            states.put(value.path(), state);
        }
        HistorySample sample = HistorySample.of(value);
        if (state.lastStored == null) {
            return store(state, sample, now);
        }
        if (!significant(state.rule, state.lastStored, sample)) {
            state.heldBack = null;
            return null;
        }
        if (state.rule.minIntervalMs() > 0 && elapsed(state, now).toMillis() < state.rule.minIntervalMs()) {
            state.heldBack = sample;
            return null;
        }
        return store(state, sample, now);
    }

    /** Held-back samples whose minimum interval has passed, and heartbeats of quiet tags, now. */
    public synchronized List<HistorySample> due() {
        Instant now = clock.instant();
        List<HistorySample> out = new ArrayList<>();
        for (TagState state : states.values()) {
            if (state.lastStored == null) {
                continue;
            }
            long quietMs = elapsed(state, now).toMillis();
            if (state.heldBack != null) {
                if (quietMs >= state.rule.minIntervalMs()) {
                    out.add(store(state, state.heldBack, now));
                }
                continue;
            }
            if (state.rule.maxIntervalMs().isPresent() && quietMs >= state.rule.maxIntervalMs().get()) {
                out.add(store(state, state.lastStored.at(now), now));
            }
        }
        return out;
    }

    /** Records {@code sample} as the tag's last stored one and keeps it in the live tail. */
    private static HistorySample store(TagState state, HistorySample sample, Instant now) {
        LiveTail.add(state.tail, sample);
        state.lastStored = sample;
        state.lastStoredAt = now;
        state.heldBack = null;
        return sample;
    }

    private static Duration elapsed(TagState state, Instant now) {
        return Duration.between(state.lastStoredAt, now);
    }

    static boolean significant(StorageRule rule, HistorySample last, HistorySample next) {
        if (rule.mode() == StorageMode.ALWAYS) {
            return true;
        }
        if (!last.quality().equals(next.quality()) || last.type() != next.type()
                || (last.value() == null) != (next.value() == null)) {
            return true;
        }
        if (next.value() == null) {
            return false;
        }
        Double before = last.numeric();
        Double now = next.numeric();
        if (before == null || now == null) {
            return !last.value().equals(next.value());
        }
        double delta = Math.abs(now - before);
        if (rule.deadbandAbsolute().isPresent()) {
            return delta > rule.deadbandAbsolute().get();
        }
        if (rule.deadbandPercent().isPresent()) {
            return delta > Math.abs(before) * rule.deadbandPercent().get() / 100.0;
        }
        return Double.compare(before, now) != 0;
    }
}
