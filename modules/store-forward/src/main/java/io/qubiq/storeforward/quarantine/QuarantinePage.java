package io.qubiq.storeforward.quarantine;

import java.util.List;

/** One page of a listing, newest first, with the total number of entries that matched the filter. */
public record QuarantinePage(List<QuarantineEntry> entries, int offset, long total) {

    public QuarantinePage {
        entries = List.copyOf(entries);
    }
}
