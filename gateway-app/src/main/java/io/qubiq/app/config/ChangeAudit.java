package io.qubiq.app.config;

import io.qubiq.config.revision.Revision;
import io.qubiq.console.ConfigAccess;
import io.qubiq.console.ConfigChanges.Author;
import io.qubiq.console.ConfigChanges.Choices;
import io.qubiq.core.event.AuditAction;
import io.qubiq.core.event.AuditEvent;
import io.qubiq.core.event.EventPublisher;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The audit journal's entry for a change that was written ({@link AuditAction#CONFIG_CHANGE}): who, from
 * where, the revision and its source, the masked diff, what was applied and what waits for a restart, the
 * comment and the choices given for buffered data. Long texts are clipped to 4,000 characters.
 * Stateless but for its collaborators; safe to share.
 */
final class ChangeAudit {

    private static final int DETAIL_MAX = 4000;

    /**
     * How a change is recorded.
     *
     * @param author  who made it, and from where
     * @param comment why, as given (may be blank)
     * @param target  the audit entry's target: {@code config/<key>} or {@code config}
     * @param outcome the audit entry's outcome: {@code changed}, {@code removed}, {@code imported}, …
     * @param choices the operator's choices for buffered data the change affects
     */
    record Recorded(Author author, String comment, String target, String outcome, Choices choices) {
    }

    private final EventPublisher events;
    private final Clock clock;

    ChangeAudit(EventPublisher events, Clock clock) {
        this.events = events;
        this.clock = clock;
    }

    /** Audits {@code recorded}, written as {@code revision} with these {@code changes} and {@code result}. */
    void written(Recorded recorded, Revision revision, List<ConfigAccess.Change> changes,
                 ConfigApplier.Applied result) {
        Author author = recorded.author();
        Map<String, String> details = new LinkedHashMap<>();
        details.put(AuditAction.DETAIL_FROM, author.from());
        details.put("revision", revision.number() + " " + OnDisk.revisionOf(revision.token()));
        details.put("source", revision.source());
        details.put("diff", clip(changes.stream().map(c -> c.key() + ": " + c.from() + " -> " + c.to())
                .collect(Collectors.joining("; "))));
        details.put("applied", String.join(", ", result.applied()));
        details.put("need_restart", String.join(", ", result.needRestart()));
        if (!recorded.comment().isBlank()) {
            details.put("comment", clip(recorded.comment()));
        }
        recorded.choices().onShrink().ifPresent(choice -> details.put("on_shrink", choice));
        recorded.choices().onRemove().ifPresent(choice -> details.put("on_remove", choice));
        events.audit(new AuditEvent(clock.instant(), author.user(), AuditAction.CONFIG_CHANGE, recorded.target(),
                recorded.outcome(), details));
    }

    private static String clip(String text) {
        return text.length() <= DETAIL_MAX ? text : text.substring(0, DETAIL_MAX) + "…";
    }
}
