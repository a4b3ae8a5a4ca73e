package io.qubiq.console;

import java.util.List;
import java.util.Optional;

/**
 * What the console may read about store-and-forward channels (Settings → Store &amp; Forward,
 * permission "View connections"). The application implements it; results are records the console
 * serializes as they are. Retry and drop arrive with sign-in and permissions (known gap).
 */
public interface StoreForwardAccess {

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
}
