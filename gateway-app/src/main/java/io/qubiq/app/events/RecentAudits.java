package io.qubiq.app.events;

import io.qubiq.console.AuditAccess;
import io.qubiq.core.event.AuditAction;
import io.qubiq.core.event.AuditEvent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;

/**
 * Interim audit view over the {@link EventJournal}'s last 500 events in memory, numbered from the
 * oldest held; replaced by the durable journal.
 */
public final class RecentAudits implements AuditAccess {

    private final EventJournal journal;

    public RecentAudits(EventJournal journal) {
        this.journal = journal;
    }

    @Override
    public Page query(Query query) {
        List<AuditEvent> newestFirst = journal.recentAudits();
        List<Entry> out = new ArrayList<>();
        long seq = newestFirst.size();
        for (AuditEvent event : newestFirst) {
            long mine = seq--;
            if (query.before().isPresent() && mine >= query.before().getAsLong()) {
                continue;
            }
            if (!matches(event, query)) {
                continue;
            }
            if (out.size() == query.limit()) {
                return new Page(out, OptionalLong.of(out.get(out.size() - 1).seq()));
            }
            Map<String, String> details = new LinkedHashMap<>(event.details());
            String from = details.getOrDefault(AuditAction.DETAIL_FROM, "");
            details.remove(AuditAction.DETAIL_FROM);
            out.add(new Entry(mine, event.at(), event.user(), from, event.action().name(), event.target(),
                    event.outcome(), details));
        }
        return new Page(out, OptionalLong.empty());
    }

    private static boolean matches(AuditEvent event, Query query) {
        return query.from().map(f -> !event.at().isBefore(f)).orElse(true)
                && query.to().map(t -> event.at().isBefore(t)).orElse(true)
                && query.user().map(u -> contains(event.user(), u)).orElse(true)
                && query.action().map(a -> event.action().name().equalsIgnoreCase(a)).orElse(true)
                && query.outcome().map(o -> contains(event.outcome(), o)).orElse(true)
                && query.text().map(t -> contains(event.target(), t) || contains(event.outcome(), t)
                        || event.details().values().stream().anyMatch(v -> contains(v, t))).orElse(true);
    }

    private static boolean contains(String haystack, String needle) {
        return haystack.toLowerCase(Locale.ROOT).contains(needle.toLowerCase(Locale.ROOT));
    }
}
