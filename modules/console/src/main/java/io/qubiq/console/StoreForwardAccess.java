package io.qubiq.console;

import java.util.List;
import java.util.Optional;

/**
 * What the console may read and do about store-and-forward channels (Settings → Store &amp; Forward:
 * reading needs "View connections", retry and drop "Edit connections"). The application implements it;
 * results are records the console serializes as they are.
 */
public interface StoreForwardAccess {

    /** What to act on: the listed quarantine ids, or every entry of the channel's quarantine. */
    record Selection(List<Long> ids, boolean all) {
        public Selection {
            ids = List.copyOf(ids);
        }
    }

    /**
     * One item's result of a retry or drop.
     *
     * @param outcome for a retry {@code delivered}, {@code queued} (back on the channel, behind the
     *                backlog), {@code failed_again} (quarantined again at once) or {@code not_retried};
     *                for a drop {@code dropped} or {@code not_dropped}
     * @param ok      true for {@code delivered}, {@code queued} and {@code dropped}
     * @param newId   for {@code failed_again}: the item's new quarantine id
     * @param message for the operator: what happened, with the new reason or why not
     */
    record ItemResult(long id, boolean ok, String outcome, Optional<Long> newId, String message) {
        public ItemResult(long id, boolean ok, String outcome, String message) {
            this(id, ok, outcome, Optional.empty(), message);
        }
    }

    /**
     * The answer to a retry or drop: one result per requested id, in id order; {@code succeeded}
     * counts the {@code ok} ones and {@code outcomes} every outcome that occurred.
     */
    record ActionResult(String connection, String action, int requested, int succeeded,
                        java.util.Map<String, Integer> outcomes, List<ItemResult> results) {
        public ActionResult(String connection, String action, List<ItemResult> results) {
            this(connection, action, results.size(), (int) results.stream().filter(ItemResult::ok).count(),
                    outcomes(results), results);
        }

        private static java.util.Map<String, Integer> outcomes(List<ItemResult> results) {
            java.util.Map<String, Integer> counts = new java.util.TreeMap<>();
            results.forEach(r -> counts.merge(r.outcome(), 1, Integer::sum));
            return counts;
        }
    }

    /** Every channel's status. */
    List<?> channels();

    Optional<?> channel(String connection);

    /**
     * One page of a channel's quarantine, newest first.
     *
     * @throws ApiError 404 for an unknown connection, 400 for a bad page or failure class
     */
    Object quarantine(String connection, int offset, int limit, Optional<String> failureClass);

    /** One quarantined item with a readable preview; empty when there is no such entry. */
    Optional<?> quarantineEntry(String connection, long id);

    /**
     * Puts the selected quarantined items back at the tail of the channel (audited), waits a few
     * seconds for their verdicts, and says per item whether it was delivered, is queued behind the
     * backlog, or failed again at once (with its new id and reason).
     *
     * @throws ApiError 404 for an unknown connection
     */
    ActionResult retry(String connection, Selection selection, String user, String from);

    /** Removes the selected quarantined items for good (audited). */
    ActionResult drop(String connection, Selection selection, String user, String from);
}
