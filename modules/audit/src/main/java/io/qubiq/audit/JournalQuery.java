package io.qubiq.audit;

import io.qubiq.core.event.AuditEvent;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Which entries a query wants; every present field must match.
 *
 * <ul>
 *   <li>{@code from} and {@code to}: the event's time lies in {@code [from, to]} (both inclusive);
 *   <li>{@code user}, {@code outcome}: case-insensitive substring of the event's user or outcome;
 *   <li>{@code action}: the action's name, case-insensitively and exactly ({@code quarantine_drop});
 *   <li>{@code text}: case-insensitive substring of the target, the outcome, or any detail key or value;
 *   <li>{@code before}: only entries with a sequence number below it (the previous page's {@code next}).
 * </ul>
 *
 * @param limit most entries in one page, 1 to {@link #MAX_LIMIT}
 */
public record JournalQuery(Optional<Instant> from, Optional<Instant> to, Optional<String> user,
                           Optional<String> action, Optional<String> outcome, Optional<String> text,
                           OptionalLong before, int limit) {

    public static final int MAX_LIMIT = 1000;

    public JournalQuery {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        user = lower(user);
        action = lower(action);
        outcome = lower(outcome);
        text = lower(text);
        Objects.requireNonNull(before, "before");
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be 1 to " + MAX_LIMIT + ", got " + limit);
        }
    }

    /** The newest {@code limit} entries, no filter. */
    public static JournalQuery newest(int limit) {
        return new JournalQuery(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty(), OptionalLong.empty(), limit);
    }

    public JournalQuery withBefore(long seq) {
        return new JournalQuery(from, to, user, action, outcome, text, OptionalLong.of(seq), limit);
    }

    /** Whether a stored entry with this sequence number may match, before decoding it. */
    boolean admitsSeq(long seq) {
        return before.isEmpty() || seq < before.getAsLong();
    }

    boolean matches(AuditEvent event) {
        if (from.isPresent() && event.at().isBefore(from.get())) {
            return false;
        }
        if (to.isPresent() && event.at().isAfter(to.get())) {
            return false;
        }
        if (user.isPresent() && !contains(event.user(), user.get())) {
            return false;
        }
        if (action.isPresent() && !event.action().name().toLowerCase(Locale.ROOT).equals(action.get())) {
            return false;
        }
        if (outcome.isPresent() && !contains(event.outcome(), outcome.get())) {
            return false;
        }
        return text.isEmpty() || textMatches(event, text.get());
    }

    private static boolean textMatches(AuditEvent event, String needle) {
        if (contains(event.target(), needle) || contains(event.outcome(), needle)) {
            return true;
        }
        for (Map.Entry<String, String> detail : event.details().entrySet()) {
            if (contains(detail.getKey(), needle) || contains(detail.getValue(), needle)) {
                return true;
            }
        }
        return false;
    }

    private static boolean contains(String haystack, String lowerNeedle) {
        return haystack.toLowerCase(Locale.ROOT).contains(lowerNeedle);
    }

    private static Optional<String> lower(Optional<String> value) {
        Objects.requireNonNull(value);
        return value.map(v -> v.toLowerCase(Locale.ROOT));
    }
}
