package io.qubiq.audit;

import io.qubiq.core.event.AuditEvent;
import java.util.Objects;

/**
 * One audit event as the journal carries it: the event and the unique id it was given when it was
 * journaled. The id travels with the entry through the store-and-forward channel, so that a store
 * can recognise an entry it already holds when the channel delivers it again after a crash.
 *
 * @param id    unique per journal, increasing in the order entries were journaled (see {@link EntryIds})
 * @param event what the operator did
 */
public record JournalEntry(long id, AuditEvent event) {

    public JournalEntry {
        Objects.requireNonNull(event, "event");
    }
}
