package io.qubiq.console;

import io.qubiq.core.event.LossReason;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What the console may read of the loss ledger (permission "View connections"): the entries that
 * match a filter, newest first, with totals per day. The application implements it over the ledger;
 * the records here are the wire format of {@code GET /api/v1/losses}.
 */
public interface LossAccess {

    /**
     * @param from  only entries whose last loss was at or after this instant
     * @param to    only entries whose first loss was before this instant
     * @param limit 1 to 10,000 entries (the totals cover every match)
     */
    record Query(Optional<Instant> from, Optional<Instant> to, Optional<String> connection,
                 Optional<LossReason> reason, int limit) {
        public Query {
            Objects.requireNonNull(from, "from");
            Objects.requireNonNull(to, "to");
            Objects.requireNonNull(connection, "connection");
            Objects.requireNonNull(reason, "reason");
        }
    }

    /**
     * Every loss of one component, connection, tag, reason and user within one minute, summed.
     *
     * @param reason the reason's label, such as {@code drop_oldest}
     * @param operatorAction true when somebody asked for the loss (a quarantine drop)
     * @param tag the tag, or null when the loss concerns no single tag
     * @param who the user, or null when nobody asked for it
     * @param firstSequence the first buffer sequence concerned, 0 when not known
     * @param reports how many loss reports were summed
     */
    record Entry(Instant minute, Instant firstAt, Instant lastAt, String component, String connection,
                 @MayBeNull String tag, String reason, boolean operatorAction, long items, long bytes,
                 long firstSequence, long lastSequence, @MayBeNull String who, long reports, String detail) {
    }

    /** What was lost on one UTC day (YYYY-MM-DD), over the matching entries. */
    record DayTotal(LocalDate day, long items, long bytes, long entries) {
    }

    /**
     * Damage the ledger found in its own files when it opened: the losses those records described are
     * missing from the answer.
     */
    record Damage(long records, long bytes, long files) {
    }

    /**
     * @param totalItems items lost over every match
     * @param unrecorded loss reports the ledger could not store (size bound or a failed write): they
     *     were logged and counted in the metrics
     */
    record Report(List<Entry> entries, boolean truncated, List<DayTotal> totals, long totalItems, long totalBytes,
                  Damage damage, long unrecorded) {
    }

    Report query(Query query);
}
