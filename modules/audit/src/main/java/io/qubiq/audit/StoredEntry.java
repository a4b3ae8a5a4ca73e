package io.qubiq.audit;

import java.util.Objects;

/**
 * A journal entry as a store holds it.
 *
 * @param seq the store's sequence number for it: 1 for the first entry it ever stored, increasing
 *            by one with each entry stored after it (gaps only where retention or recovery removed entries)
 */
public record StoredEntry(long seq, JournalEntry entry) {

    public StoredEntry {
        Objects.requireNonNull(entry, "entry");
    }
}
