package io.qubiq.historian;

import io.qubiq.tagbus.TagPattern;
import io.qubiq.core.tag.TagPath;
import io.qubiq.core.tag.TagValue;
import io.qubiq.core.time.Ticker;
import java.time.Clock;
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
 * Intervals are measured on the injected monotonic {@link Ticker}, at the moment a sample is offered,
 * not on the samples' own timestamps nor on the wall clock: a device clock that drifts, or a gateway
 * clock stepped back or forward (NTP, an operator, a resumed virtual machine), neither stops the
 * storing of changes and heartbeats nor rushes a burst of them. The wall clock only stamps values:
 * a stored sample keeps its source and receive times, and a heartbeat is stamped with the wall
 * clock's time when it is stored.
 *
 * <p>Every sample the filter decides to store is also kept in the {@link LiveTail} given to it:
 * the filter looks each tag up once per value anyway, and keeps the tag's ring of the tail in the
 * same per-tag state, so storing a sample costs no second lookup.
 *
 * <p>The rules can be replaced while samples flow ({@link #replaceRules}): each tag keeps its last stored
 * sample, when it was stored, and a held-back sample, and is judged by its new rule from the next sample
 * or {@link #due} on.
 *
 * <p>Threading: {@link #offer}, {@link #offerAll}, {@link #due} and {@link #replaceRules} may be called
 * from different threads; every call holds the filter's lock ({@link #offerAll} once for the whole batch).
 */
public final class StorageFilter {

    private List<Rule> rules;
    private Rule defaultRule;
    private final Clock clock;
    private final Ticker ticker;
    private final LiveTail liveTail;
    private final Map<TagPath, TagState> states = new HashMap<>();

    private record Rule(TagPattern pattern, StorageRule options) {
    }

    private static final class TagState {
        StorageRule rule;
        /** The tag's ring in the live tail; null when the tail keeps nothing. */
        final SampleRing tail;
        HistorySample lastStored;
        /** The ticker's reading when {@link #lastStored} was stored. */
        long lastStoredNanos;
        HistorySample heldBack;

        TagState(StorageRule rule, SampleRing tail) {
            this.rule = rule;
            this.tail = tail;
        }
    }

    /**
     * A filter that keeps its stored samples in {@code liveTail}; {@code ticker} measures the
     * intervals, {@code clock} stamps heartbeats.
     */
    public StorageFilter(StorageRule defaultRule, List<StorageRule> rules, Clock clock, Ticker ticker,
                         LiveTail liveTail) {
        this.defaultRule = new Rule(TagPattern.compile("**"), Objects.requireNonNull(defaultRule, "defaultRule"));
        this.rules = rules.stream().map(r -> new Rule(TagPattern.compile(r.tags()), r)).toList();
        this.clock = Objects.requireNonNull(clock, "clock");
        this.ticker = Objects.requireNonNull(ticker, "ticker");
        this.liveTail = Objects.requireNonNull(liveTail, "liveTail");
    }

    /** A filter without a live tail. */
    public StorageFilter(StorageRule defaultRule, List<StorageRule> rules, Clock clock, Ticker ticker) {
        this(defaultRule, rules, clock, ticker, new LiveTail(0));
    }

    public static StorageFilter of(HistorianConfig config, Clock clock, Ticker ticker, LiveTail liveTail) {
        return new StorageFilter(config.defaultRule(), config.rules(), clock, ticker, liveTail);
    }

    /**
     * Judges every tag by {@code rules} (else {@code defaultRule}) from now on, keeping what each tag
     * stored last and what it holds back.
     */
    public synchronized void replaceRules(StorageRule defaultRule, List<StorageRule> rules) {
        this.defaultRule = new Rule(TagPattern.compile("**"), Objects.requireNonNull(defaultRule, "defaultRule"));
        this.rules = rules.stream().map(r -> new Rule(TagPattern.compile(r.tags()), r)).toList();
        states.forEach((tag, state) -> state.rule = ruleFor(tag));
    }

    /** The rule that applies to {@code tag}. */
    public synchronized StorageRule ruleFor(TagPath tag) {
        for (Rule rule : rules) {
            if (rule.pattern.matches(tag)) {
                return rule.options;
            }
        }
        return defaultRule.options;
    }

    /** The sample to store for {@code value} now, or empty when it is filtered out or held back. */
    public Optional<HistorySample> offer(TagValue value) {
        return offer(value, ticker.nanos());
    }

    /**
     * As {@link #offer(TagValue)}, with the ticker read by the caller ({@code nowNanos}): a consumer
     * handed a batch of values at once reads it once for the batch.
     */
    public synchronized Optional<HistorySample> offer(TagValue value, long nowNanos) {
        return Optional.ofNullable(decide(value, nowNanos));
    }

    /**
     * Offers every value of a batch, in order, at the ticker reading {@code nowNanos}, and adds the
     * samples to store to {@code out}: what {@link #offer(TagValue, long)} does for each, under one lock.
     */
    public synchronized void offerAll(List<TagValue> values, long nowNanos, List<HistorySample> out) {
        for (TagValue value : values) {
            HistorySample sample = decide(value, nowNanos);
            if (sample != null) {
                out.add(sample);
            }
        }
    }

    /** The sample to store for {@code value}, or null; the caller holds the lock. */
    private HistorySample decide(TagValue value, long now) {
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
        if (state.rule.minIntervalMs() > 0 && elapsedMs(state, now) < state.rule.minIntervalMs()) {
            state.heldBack = sample;
            return null;
        }
        return store(state, sample, now);
    }

    /**
     * Held-back samples whose minimum interval has passed, and heartbeats of quiet tags, now: the
     * intervals on the ticker, a heartbeat stamped with the wall clock.
     */
    public synchronized List<HistorySample> due() {
        long now = ticker.nanos();
        Instant wallNow = clock.instant();
        List<HistorySample> out = new ArrayList<>();
        for (TagState state : states.values()) {
            if (state.lastStored == null) {
                continue;
            }
            long quietMs = elapsedMs(state, now);
            if (state.heldBack != null) {
                if (quietMs >= state.rule.minIntervalMs()) {
                    out.add(store(state, state.heldBack, now));
                }
                continue;
            }
            if (state.rule.maxIntervalMs().isPresent() && quietMs >= state.rule.maxIntervalMs().get()) {
                out.add(store(state, state.lastStored.at(wallNow), now));
            }
        }
        return out;
    }

    /** Records {@code sample} as the tag's last stored one and keeps it in the live tail. */
    private static HistorySample store(TagState state, HistorySample sample, long nowNanos) {
        LiveTail.add(state.tail, sample);
        state.lastStored = sample;
        state.lastStoredNanos = nowNanos;
        state.heldBack = null;
        return sample;
    }

    /** Milliseconds on the ticker since the tag's last stored sample; by subtraction, as the ticker asks. */
    private static long elapsedMs(TagState state, long nowNanos) {
        return (nowNanos - state.lastStoredNanos) / 1_000_000L;
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
