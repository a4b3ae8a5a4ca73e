package io.qubiq.audit;

import java.util.List;
import java.util.OptionalLong;

/**
 * One page of a query's answer, newest first.
 *
 * @param next the {@code before} of the following (older) page; empty when no older entry matches
 */
public record JournalPage(List<StoredEntry> entries, OptionalLong next) {

    public JournalPage {
        entries = List.copyOf(entries);
    }
}
