package io.qubiq.core.event;

import java.time.Instant;

/**
 * Audit events could not be put on the audit journal's channel (it refused them at its limit, or it
 * failed or was not running): they are in the log on {@code qubiq.audit} but not in the journal.
 * Raised on the first such event and cleared by the next one the channel takes.
 */
public record AuditNotJournaledAlarm(boolean active, Instant at, long notJournaled, String reason)
        implements AlarmEvent {

    @Override
    public String key() {
        return "audit-not-journaled";
    }

    @Override
    public String source() {
        return "audit";
    }

    @Override
    public AlarmSeverity severity() {
        return AlarmSeverity.CRITICAL;
    }

    @Override
    public String message() {
        return active
                ? notJournaled + " audit event(s) could not be journaled (" + reason + "); they are only in the log"
                : "Audit events are journaled again after " + notJournaled + " that were not";
    }
}
