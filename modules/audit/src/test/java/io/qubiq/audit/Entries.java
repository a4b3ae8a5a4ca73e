package io.qubiq.audit;

import io.qubiq.core.event.AuditAction;
import io.qubiq.core.event.AuditEvent;
import java.time.Instant;
import java.util.Map;

/** Journal entries for tests: entry {@code n} has id {@code 1000 + n}, target {@code item/n}. */
final class Entries {

    static final Instant T0 = Instant.parse("2025-03-01T08:00:00Z");

    private Entries() {
    }

    static JournalEntry entry(int n) {
        return entry(n, "alice", AuditAction.QUARANTINE_RETRY, "retried");
    }

    static JournalEntry entry(int n, String user, AuditAction action, String outcome) {
        return new JournalEntry(1000 + n, new AuditEvent(T0.plusSeconds(n), user, action, "item/" + n, outcome,
                Map.of(AuditAction.DETAIL_FROM, "10.0.0." + (n % 250), "n", Integer.toString(n))));
    }

    /** The n of an entry made by {@link #entry}. */
    static int number(JournalEntry entry) {
        return Integer.parseInt(entry.event().target().substring("item/".length()));
    }
}
