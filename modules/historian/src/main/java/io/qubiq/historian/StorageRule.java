package io.qubiq.historian;

import io.qubiq.tagbus.TagPattern;
import io.qubiq.core.config.ConfigChecked;
import io.qubiq.core.config.Default;
import io.qubiq.core.config.Doc;
import io.qubiq.core.config.Range;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * How the historian stores the samples of the tags matching {@link #tags}. The first rule whose
 * pattern matches a tag applies to it; a tag no rule matches follows the default rule.
 */
@Doc("Storage options for the tags matching a pattern.")
public record StorageRule(
        @Doc("Tag pattern: a tag path (that tag and every tag beneath it), or a glob where * matches within"
                + " one path segment and ** across segments, such as plant1/*/temperature or plant1/**.")
        @Default("'**'")
        String tags,

        @Doc("on_change stores a sample only when its value moves beyond the deadband or its quality changes;"
                + " always stores every sample.")
        @Default("on_change")
        StorageMode mode,

        @Doc("With on_change, a numeric sample is stored only when it differs from the last stored value by"
                + " more than this amount. Not together with deadband_percent.")
        Optional<Double> deadbandAbsolute,

        @Doc("With on_change, a numeric sample is stored only when it differs from the last stored value by"
                + " more than this percentage of the last stored value's magnitude. Not together with"
                + " deadband_absolute.")
        Optional<Double> deadbandPercent,

        @Doc("Least time between two stored samples of one tag. A change that comes sooner is held back, and"
                + " the latest held-back sample is stored once the interval has passed. 0 stores at once.")
        @Default("0")
        @Range(min = 0, max = 86400000)
        long minIntervalMs,

        @Doc("Heartbeat: when a tag stored nothing for this long, its last value is stored again with the"
                + " current time (keeping its source time), so a quiet tag still shows in every time range."
                + " Left out, no heartbeat.")
        @Range(min = 100, max = 604800000)
        Optional<Long> maxIntervalMs) implements ConfigChecked {

    /** Every tag, on change, no deadband, no interval limits. */
    public static StorageRule defaults() {
        return new StorageRule("**", StorageMode.ON_CHANGE, Optional.empty(), Optional.empty(), 0, Optional.empty());
    }

    public StorageRule withTags(String value) {
        return new StorageRule(value, mode, deadbandAbsolute, deadbandPercent, minIntervalMs, maxIntervalMs);
    }

    public StorageRule withMode(StorageMode value) {
        return new StorageRule(tags, value, deadbandAbsolute, deadbandPercent, minIntervalMs, maxIntervalMs);
    }

    public StorageRule withDeadbandAbsolute(double value) {
        return new StorageRule(tags, mode, Optional.of(value), Optional.empty(), minIntervalMs, maxIntervalMs);
    }

    public StorageRule withDeadbandPercent(double value) {
        return new StorageRule(tags, mode, Optional.empty(), Optional.of(value), minIntervalMs, maxIntervalMs);
    }

    public StorageRule withMinIntervalMs(long value) {
        return new StorageRule(tags, mode, deadbandAbsolute, deadbandPercent, value, maxIntervalMs);
    }

    public StorageRule withMaxIntervalMs(long value) {
        return new StorageRule(tags, mode, deadbandAbsolute, deadbandPercent, minIntervalMs, Optional.of(value));
    }

    @Override
    public List<Violation> violations() {
        List<Violation> violations = new ArrayList<>();
        TagPattern.problemWith(tags).ifPresent(problem -> violations.add(new Violation("tags", problem)));
        if (deadbandAbsolute.isPresent() && deadbandPercent.isPresent()) {
            violations.add(new Violation("deadband_percent", "use either deadband_absolute or deadband_percent,"
                    + " not both"));
        }
        deadbandAbsolute.filter(d -> !(d >= 0) || d.isInfinite()).ifPresent(d -> violations.add(
                new Violation("deadband_absolute", "must be a finite number of at least 0, was " + d)));
        deadbandPercent.filter(d -> !(d >= 0 && d <= 100)).ifPresent(d -> violations.add(
                new Violation("deadband_percent", "must be from 0 to 100, was " + d)));
        if (mode == StorageMode.ALWAYS && (deadbandAbsolute.isPresent() || deadbandPercent.isPresent())) {
            violations.add(new Violation("mode", "always stores every sample, so a deadband has no effect;"
                    + " use on_change or remove the deadband"));
        }
        maxIntervalMs.filter(max -> max <= minIntervalMs).ifPresent(max -> violations.add(new Violation(
                "max_interval_ms", "must be above min_interval_ms (" + minIntervalMs + "), was " + max)));
        return violations;
    }
}
