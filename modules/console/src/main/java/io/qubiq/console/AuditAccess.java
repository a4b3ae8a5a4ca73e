package io.qubiq.console;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What the console may read of the audit journal (permission "View audit"): one page of entries,
 * newest first, matching a filter. The application implements it over the durable journal.
 */
public interface AuditAccess {

    /**
     * A filter; every present field must match. Text fields match case-insensitively as substrings
     * ({@code action} exactly, case-insensitively); {@code text} is searched in target, outcome and details.
     *
     * @param before only entries with a sequence number below this (the previous page's {@code next})
     * @param limit  1 to 1,000 entries
     */
    record Query(Optional<Instant> from, Optional<Instant> to, Optional<String> user, Optional<String> action,
                 Optional<String> outcome, Optional<String> text, OptionalLong before, int limit) {
        public Query {
            Objects.requireNonNull(from, "from");
            Objects.requireNonNull(to, "to");
            Objects.requireNonNull(user, "user");
            Objects.requireNonNull(action, "action");
            Objects.requireNonNull(outcome, "outcome");
            Objects.requireNonNull(text, "text");
            Objects.requireNonNull(before, "before");
            if (limit < 1 || limit > 1000) {
                throw new IllegalArgumentException("limit must be 1 to 1000, got " + limit);
            }
        }
    }

    /**
     * One journaled action.
     *
     * @param seq  the journal's sequence number, increasing with each entry it stores
     * @param from the remote address the action came from, or {@code ""} for the gateway's own actions
     */
    record Entry(long seq, Instant at, String user, String from, String action, String target, String outcome,
                 Map<String, String> details) {
    }

    /** A page of entries, newest first; {@code next} is the {@code before} of the following page, if any. */
    record Page(List<Entry> entries, OptionalLong next) {
    }

    Page query(Query query);
}
