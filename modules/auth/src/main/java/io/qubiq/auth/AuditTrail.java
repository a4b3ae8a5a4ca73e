package io.qubiq.auth;

import io.qubiq.core.event.AlarmEvent;
import io.qubiq.core.event.AuditAction;
import io.qubiq.core.event.AuditEvent;
import io.qubiq.core.event.EventPublisher;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Builds this module's audit events: who, when (the injected clock), what, target, outcome, and
 * always the {@value io.qubiq.core.event.AuditAction#DETAIL_FROM} detail (the remote address). Never
 * puts a password or secret into an event. Thread-safe if the publisher is (it must be).
 */
final class AuditTrail {

    /** The acting user for actions the gateway takes by itself (first admin from configuration). */
    static final String SYSTEM = "system";

    private final EventPublisher events;
    private final Clock clock;

    AuditTrail(EventPublisher events, Clock clock) {
        this.events = events;
        this.clock = clock;
    }

    void record(String user, AuditAction action, String target, String outcome, String from, String... details) {
        publish(event(user, action, target, outcome, from, details));
    }

    /** The event {@link #record} would publish, stamped now, for publishing later. */
    AuditEvent event(String user, AuditAction action, String target, String outcome, String from,
                     String... details) {
        Map<String, String> map = new LinkedHashMap<>();
        map.put(AuditAction.DETAIL_FROM, from);
        for (int i = 0; i + 1 < details.length; i += 2) {
            map.put(details[i], details[i + 1]);
        }
        return new AuditEvent(clock.instant(), printable(user), action, target, outcome, map);
    }

    void publish(AuditEvent event) {
        events.audit(event);
    }

    void alarm(AlarmEvent alarm) {
        events.alarm(alarm);
    }

    Clock clock() {
        return clock;
    }

    /** A typed user name as it may appear in the journal: at most 64 characters, no control characters. */
    static String printable(String typed) {
        String cut = typed.length() > 64 ? typed.substring(0, 64) + "…" : typed;
        return cut.codePoints().map(c -> Character.isISOControl(c) ? '?' : c)
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString();
    }
}
