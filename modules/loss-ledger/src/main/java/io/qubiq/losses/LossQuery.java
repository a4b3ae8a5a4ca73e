package io.qubiq.losses;

import io.qubiq.core.event.LossReason;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * Which ledger entries to read; every present field must match.
 *
 * @param from only entries whose last loss was noticed at or after this instant
 * @param to only entries whose first loss was noticed before this instant
 * @param connection only this connection (exactly)
 * @param reason only this reason
 * @param limit at most this many entries, newest first (totals always cover every match)
 */
public record LossQuery(Optional<Instant> from, Optional<Instant> to, Optional<String> connection,
                        Optional<LossReason> reason, int limit) {

    public static final int MAX_LIMIT = 10_000;

    public LossQuery {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        Objects.requireNonNull(connection, "connection");
        Objects.requireNonNull(reason, "reason");
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be 1 to " + MAX_LIMIT + ", got " + limit);
        }
    }

    /** Everything, up to 1,000 entries. */
    public static LossQuery all() {
        return new LossQuery(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), 1000);
    }

    public LossQuery between(Instant fromInclusive, Instant toExclusive) {
        return new LossQuery(Optional.of(fromInclusive), Optional.of(toExclusive), connection, reason, limit);
    }

    public LossQuery forConnection(String id) {
        return new LossQuery(from, to, Optional.of(id), reason, limit);
    }

    public LossQuery because(LossReason why) {
        return new LossQuery(from, to, connection, Optional.of(why), limit);
    }

    boolean matches(LossEntry entry) {
        return from.map(f -> !entry.lastAt().isBefore(f)).orElse(true)
                && to.map(t -> entry.firstAt().isBefore(t)).orElse(true)
                && connection.map(c -> c.equals(entry.connection())).orElse(true)
                && reason.map(r -> r == entry.reason()).orElse(true);
    }
}
