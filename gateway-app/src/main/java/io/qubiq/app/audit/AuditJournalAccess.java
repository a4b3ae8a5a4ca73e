package io.qubiq.app.audit;

import io.qubiq.audit.JournalPage;
import io.qubiq.audit.JournalQuery;
import io.qubiq.audit.LocalAuditStore;
import io.qubiq.audit.StoredEntry;
import io.qubiq.console.AuditAccess;
import io.qubiq.core.event.AuditAction;
import io.qubiq.core.event.AuditEvent;
import java.util.Locale;

/**
 * The console's read access to the audit journal: {@link AuditAccess} over the local audit store.
 * The {@code from} of an entry is its event's {@code from} detail ({@code ""} when absent).
 *
 * <p>Threading: safe for concurrent queries (the store's read lock).
 */
public final class AuditJournalAccess implements AuditAccess {

    private final LocalAuditStore store;

    public AuditJournalAccess(LocalAuditStore store) {
        this.store = store;
    }

    @Override
    public Page query(Query query) {
        JournalPage page = store.query(new JournalQuery(query.from(), query.to(), query.user(), query.action(),
                query.outcome(), query.text(), query.before(), query.limit()));
        return new Page(page.entries().stream().map(AuditJournalAccess::entry).toList(), page.next());
    }

    private static Entry entry(StoredEntry stored) {
        AuditEvent event = stored.entry().event();
        return new Entry(stored.seq(), event.at(), event.user(),
                event.details().getOrDefault(AuditAction.DETAIL_FROM, ""),
                event.action().name().toLowerCase(Locale.ROOT), event.target(), event.outcome(), event.details());
    }
}
