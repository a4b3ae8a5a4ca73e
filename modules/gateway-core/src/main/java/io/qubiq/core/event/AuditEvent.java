package io.qubiq.core.event;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One operator action, for the audit journal: who did what to which target, and the outcome.
 *
 * @param user    the acting user (or {@code system} for automatic actions)
 * @param target  what was acted on, such as {@code connection/historian/quarantine/1042}
 * @param outcome what happened, such as {@code retried} or {@code not found}
 * @param details extra facts (item counts, ids), kept in insertion order
 */
public record AuditEvent(Instant at, String user, AuditAction action, String target, String outcome,
                         Map<String, String> details) {

    public AuditEvent {
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(action, "action");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(outcome, "outcome");
        details = Collections.unmodifiableMap(new LinkedHashMap<>(details));
    }
}
