package io.qubiq.console;

import io.qubiq.core.error.FailureClass;
import io.qubiq.core.health.ConnectionState;
import java.time.Duration;
import java.time.Instant;
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

    /**
     * One channel at one moment (Settings → Store &amp; Forward). Counters are totals since the
     * gateway started, buffer figures current.
     *
     * @param state          the channel's state: {@code RUNNING}, {@code STALLED}, {@code FAILED}, ...
     * @param destination    the connection monitor's verdict on the destination
     * @param fillPercent    buffered bytes as a percentage of {@code maxBytes}
     * @param oldestItemAge  how long the oldest buffered item has waited, when something is buffered
     * @param itemsDropped   what a drop-oldest buffer discarded at its limit (in the loss ledger)
     * @param itemsRefused   what a refusing buffer turned away at its limit (in the loss ledger)
     * @param refusing       true while the items-refused alarm is raised
     */
    record Channel(String connection, String state, ConnectionState destination, long bufferedBytes,
                   long bufferedItems, long maxBytes, double fillPercent, int highWaterPercent, int lowWaterPercent,
                   Optional<Duration> oldestItemAge, double inBytesPerSecond, double outBytesPerSecond, long itemsIn,
                   long itemsDelivered, long itemsDropped, long itemsRefused, long itemsQuarantined,
                   long deliveryAttempts, int quarantineItems, long quarantineBytes, boolean pressureAlarm,
                   boolean refusing, Optional<String> lastError, Optional<Instant> lastErrorAt,
                   String overflowPolicy) {
    }

    /**
     * One quarantined item, without its bytes.
     *
     * @param previousIds the ids it had in the quarantine before, when an operator retried it and it
     *                    failed again
     */
    record QuarantineItem(long id, FailureClass failureClass, String reason, String error, int attempts,
                          Instant firstFailure, Instant lastFailure, int itemBytes, List<Long> previousIds) {
        public QuarantineItem {
            previousIds = List.copyOf(previousIds);
        }
    }

    /** One page of a quarantine, newest first: {@code total} entries in all (after the filter). */
    record QuarantinePage(List<QuarantineItem> entries, int offset, long total) {
        public QuarantinePage {
            entries = List.copyOf(entries);
        }
    }

    /** One quarantined item with a readable rendering of its bytes. */
    record QuarantinePreview(QuarantineItem entry, String preview, int itemBytes) {
    }

    /**
     * A store-and-forward directory that no configured connection owns (its connection was renamed or
     * removed while it still held data). Nothing in it is delivered or deleted.
     *
     * @param connection        the directory's name under {@code connections/}, the old connection id
     * @param bufferedItems     items not delivered yet, -1 when the buffer could not be read
     * @param bufferedBytes     their bytes, -1 when the buffer could not be read
     * @param quarantineEntries quarantined items
     * @param lastModified      the newest change to any of its files
     * @param problem           why the buffer could not be read, if it could not
     */
    record OrphanedChannel(String connection, long bufferedItems, long bufferedBytes, long quarantineEntries,
                           long quarantineBytes, Instant lastModified, @MayBeNull String problem) {
    }

    /**
     * The answer to an orphan's discard or attach.
     *
     * @param action            {@code discarded} or {@code attached}
     * @param bufferedItems     the buffered items it held
     * @param quarantineEntries the quarantined items it held
     * @param message           for the operator: what happened to them
     */
    record OrphanAction(String connection, String action, long bufferedItems, long quarantineEntries,
                        String message) {
    }

    /** Every channel's status, by connection name. */
    List<Channel> channels();

    /** The orphaned channel directories found at start and not yet discarded or attached, by name. */
    default List<OrphanedChannel> orphans() {
        return List.of();
    }

    /**
     * Deletes an orphan's buffer and quarantine after recording every item in the loss ledger (audited).
     *
     * @param confirm must repeat {@code name}
     * @throws RequestFailure.NotFound no such orphan
     * @throws RequestFailure.InvalidRequest the confirmation does not name it
     */
    default OrphanAction discardOrphan(String name, String confirm, String comment, String user, String from) {
        throw new RequestFailure.NotFound("no orphaned store-and-forward directory '" + name + "'");
    }

    /**
     * Makes an orphan's items deliverable by the running outbound connection {@code connection} (audited).
     *
     * @throws RequestFailure.NotFound no such orphan or connection
     * @throws RequestFailure.Conflict another kind, or the connection holds items
     */
    default OrphanAction attachOrphan(String name, String connection, String user, String from) {
        throw new RequestFailure.NotFound("no orphaned store-and-forward directory '" + name + "'");
    }

    Optional<Channel> channel(String connection);

    /**
     * One page of a channel's quarantine, newest first.
     *
     * @throws RequestFailure.NotFound for an unknown connection
     * @throws RequestFailure.InvalidRequest for a bad page or failure class
     * @throws RequestFailure.Conflict when the channel is not running
     */
    QuarantinePage quarantine(String connection, int offset, int limit, Optional<String> failureClass);

    /**
     * One quarantined item with a readable preview; empty when there is no such entry.
     *
     * @throws RequestFailure.NotFound for an unknown connection
     * @throws RequestFailure.Conflict when the channel is not running
     */
    Optional<QuarantinePreview> quarantineEntry(String connection, long id);

    /**
     * Puts the selected quarantined items back at the tail of the channel (audited), waits a few
     * seconds for their verdicts, and says per item whether it was delivered, is queued behind the
     * backlog, or failed again at once (with its new id and reason).
     *
     * @throws RequestFailure.NotFound for an unknown connection
     * @throws RequestFailure.Conflict when the channel is not running
     */
    ActionResult retry(String connection, Selection selection, String user, String from);

    /**
     * Removes the selected quarantined items for good (audited).
     *
     * @throws RequestFailure.NotFound for an unknown connection
     * @throws RequestFailure.Conflict when the channel is not running
     */
    ActionResult drop(String connection, Selection selection, String user, String from);
}
