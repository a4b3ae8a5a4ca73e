package io.qubiq.audit;

import io.qubiq.buffer.OverflowPolicy;
import io.qubiq.core.config.ConfigChecked;
import io.qubiq.core.config.Default;
import io.qubiq.core.config.Doc;
import io.qubiq.core.config.Range;
import io.qubiq.storeforward.ChannelConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The {@code audit:} section: the local audit store's limits, the store-and-forward channel that
 * carries audit events to it, and an optional outbound connection that receives a copy.
 *
 * <pre>
 * audit:
 *   max_bytes: 1073741824
 *   max_age_days: 730
 *   min_age_days: 1
 *   forward_to: plant-questdb
 * </pre>
 */
@Doc("The audit journal: every operator action, on its own store-and-forward channel into the local audit"
        + " store. See docs/audit.md.")
public record AuditConfig(
        @Doc("Limit on the local audit store's size on disk. Past it, whole oldest segments are deleted.")
        @Default("268435456")
        @Range(min = 1048576, max = 1099511627776L)
        long maxBytes,

        @Doc("Size at which the local audit store starts a new segment file; retention deletes whole segments.")
        @Default("8388608")
        @Range(min = 65536, max = 268435456)
        int segmentBytes,

        @Doc("Retention by age: a segment whose newest entry was written more than this many days ago is"
                + " deleted (never the newest segment). Left out, only max_bytes limits the store.")
        @Range(min = 1, max = 36500)
        Optional<Integer> maxAgeDays,

        @Doc("Retention by size never deletes a segment written to less than this many days ago, so a flood of"
                + " entries cannot push out recent ones; meanwhile the store may grow past max_bytes (logged at WARN)."
                + " 0 lets max_bytes alone decide.")
        @Default("1")
        @Range(min = 0, max = 36500)
        int minAgeDays,

        @Doc("Store-and-forward for the audit channel. overflow_policy must stay refuse (the default here):"
                + " audit entries are never dropped.")
        ChannelConfig storeAndForward,

        @Doc("An outbound connection (a questdb or sql one under outbound) that also receives every entry, as"
                + " rows of the table qubiq_audit (for SQL, create it first: see docs/audit.md). Left out, entries"
                + " stay in the local store only.")
        Optional<String> forwardTo) implements ConfigChecked {

    /** The table a forward_to connection receives. */
    public static final String TABLE = "qubiq_audit";

    public static AuditConfig defaults() {
        return new AuditConfig(256L << 20, 8 << 20, Optional.empty(), 1, ChannelConfig.defaults(), Optional.empty());
    }

    public AuditConfig withStoreLimits(long maxBytes, int segmentBytes, Optional<Integer> maxAgeDays) {
        return new AuditConfig(maxBytes, segmentBytes, maxAgeDays, minAgeDays, storeAndForward, forwardTo);
    }

    public AuditConfig withMinAgeDays(int days) {
        return new AuditConfig(maxBytes, segmentBytes, maxAgeDays, days, storeAndForward, forwardTo);
    }

    public AuditConfig withStoreAndForward(ChannelConfig channel) {
        return new AuditConfig(maxBytes, segmentBytes, maxAgeDays, minAgeDays, channel, forwardTo);
    }

    public AuditConfig withForwardTo(Optional<String> connection) {
        return new AuditConfig(maxBytes, segmentBytes, maxAgeDays, minAgeDays, storeAndForward, connection);
    }

    @Override
    public List<Violation> violations() {
        List<Violation> violations = new ArrayList<>();
        if (maxBytes < segmentBytes) {
            violations.add(new Violation("max_bytes", "must be at least segment_bytes (" + segmentBytes + "), was "
                    + maxBytes));
        }
        maxAgeDays.filter(days -> days < minAgeDays).ifPresent(days -> violations.add(new Violation("max_age_days",
                "must be at least min_age_days (" + minAgeDays + "), was " + days)));
        if (storeAndForward.overflowPolicyOr(OverflowPolicy.REFUSE) != OverflowPolicy.REFUSE) {
            violations.add(new Violation("store_and_forward.overflow_policy", "the audit channel never drops"
                    + " entries: leave it out or set refuse"));
        }
        return violations;
    }
}
