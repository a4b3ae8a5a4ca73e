package io.qubiq.storeforward;

import io.qubiq.storeforward.quarantine.QuarantineEntry;
import java.time.Instant;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What an operator's quarantine drop removed, as audit details, so the journal says what was lost and
 * not only which ids: {@code bytes} (their total size), {@code first_failure} (the earliest first failure
 * among them), {@code reasons} (each distinct failure class and reason with how many items had it, at most
 * {@value #REASONS_LISTED}) and {@code items} (the first {@value #ITEMS_LISTED} one by one: id, size,
 * failure class, first failure, attempts, reason). Bounded: a drop of 100,000 items is one entry of a few
 * kilobytes. Reasons longer than {@value #REASON_CHARS} characters are cut.
 *
 * <p>Stateless.
 */
final class DroppedItems {

    static final int ITEMS_LISTED = 20;
    static final int REASONS_LISTED = 10;
    static final int REASON_CHARS = 200;

    private DroppedItems() {
    }

    /** The details for {@code dropped} (in drop order); empty when nothing was dropped. */
    static Map<String, String> describe(List<QuarantineEntry> dropped) {
        if (dropped.isEmpty()) {
            return Map.of();
        }
        Map<String, String> details = new LinkedHashMap<>();
        details.put("bytes", String.valueOf(dropped.stream().mapToLong(QuarantineEntry::itemBytes).sum()));
        details.put("first_failure", dropped.stream().map(QuarantineEntry::firstFailure)
                .min(Comparator.naturalOrder()).map(Instant::toString).orElseThrow());
        Map<String, Long> reasons = dropped.stream().collect(Collectors.groupingBy(
                e -> label(e) + ": " + cut(e.reason()), LinkedHashMap::new, Collectors.counting()));
        details.put("reasons", reasons.entrySet().stream().limit(REASONS_LISTED)
                .map(r -> r.getKey() + " (" + r.getValue() + ")")
                .collect(Collectors.joining("; ", "", more(reasons.size(), REASONS_LISTED, "reasons"))));
        details.put("items", dropped.stream().limit(ITEMS_LISTED)
                .map(e -> "id " + e.id() + ": " + e.itemBytes() + " bytes, " + label(e) + ", first failed "
                        + e.firstFailure() + ", " + e.attempts() + (e.attempts() == 1 ? " attempt" : " attempts")
                        + ", " + cut(e.reason()))
                .collect(Collectors.joining("; ", "", more(dropped.size(), ITEMS_LISTED, "items"))));
        return details;
    }

    private static String label(QuarantineEntry entry) {
        return entry.failureClass().name().toLowerCase(Locale.ROOT);
    }

    private static String cut(String reason) {
        return reason.length() <= REASON_CHARS ? reason : reason.substring(0, REASON_CHARS) + "…";
    }

    private static String more(int total, int listed, String what) {
        return total > listed ? "; and " + (total - listed) + " more " + what : "";
    }
}
