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

    /** One item's result of a retry or drop. */
    record ItemResult(long id, boolean ok, String message) {
    }

    /** The answer to a retry or drop: one result per requested id, in id order. */
    record ActionResult(String connection, String action, int requested, int succeeded, List<ItemResult> results) {
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
     * Puts the selected quarantined items back at the tail of the channel (audited).
     *
     * @throws ApiError 404 for an unknown connection
     */
    ActionResult retry(String connection, Selection selection, String user, String from);

    /** Removes the selected quarantined items for good (audited). */
    ActionResult drop(String connection, Selection selection, String user, String from);
}
