package io.qubiq.audit;

import io.qubiq.core.error.PermanentException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads one segment for a query: its valid records (up to the length the store knows to be
 * written), then walks them newest first, decoding and matching only those the query admits by
 * sequence number. A record that does not decode is skipped with a warning, never thrown.
 *
 * <p>Threading: stateless; called under the store's read lock.
 */
final class JournalScan {

    private static final Logger log = LoggerFactory.getLogger(JournalScan.class);

    private record Raw(long seq, byte[] payload) {
    }

    private JournalScan() {
    }

    /** Adds matches to {@code into}, newest first, until it holds {@code upTo} entries. */
    static void newestFirst(SegmentInfo segment, int maxBody, JournalQuery query, JournalEntryCodec codec,
                            List<StoredEntry> into, int upTo) throws IOException {
        List<Raw> records = new ArrayList<>();
        SegmentReader.Result result = SegmentReader.read(segment.file(), segment.bytes(), segment.firstSeq() - 1,
                maxBody, (seq, id, payload, offset) -> {
                    if (query.admitsSeq(seq)) {
                        records.add(new Raw(seq, payload));
                    }
                });
        if (result.end() != SegmentReader.End.CLEAN) {
            log.warn("Audit journal: {} no longer reads cleanly at offset {} ({}); listing the entries before it",
                    segment.file(), result.validEnd(), result.reason());
        }
        for (int i = records.size() - 1; i >= 0 && into.size() < upTo; i--) {
            Raw raw = records.get(i);
            try {
                JournalEntry entry = codec.decode(raw.payload());
                if (query.matches(entry.event())) {
                    into.add(new StoredEntry(raw.seq(), entry));
                }
            } catch (PermanentException e) {
                log.warn("Audit journal: entry {} in {} cannot be read and is left out: {}", raw.seq(), segment.file(),
                        e.getMessage());
            }
        }
    }
}
