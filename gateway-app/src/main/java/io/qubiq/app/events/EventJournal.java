package io.qubiq.app.events;

import io.qubiq.core.event.AlarmEvent;
import io.qubiq.core.event.AuditEvent;
import io.qubiq.core.event.EventPublisher;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where alarms and audit events go today: the log (alarms at the level their severity calls for,
 * every audit event on the {@code qubiq.audit} logger), the set of active alarms, and a bounded
 * list of recent events for the console. Known gap: the durable audit journal on its own
 * store-and-forward stream arrives with the console issue; until then the log file is the record.
 *
 * <p>Threading: safe for concurrent publishers; readers get copies.
 */
public final class EventJournal implements EventPublisher {

    private static final Logger audit = LoggerFactory.getLogger("qubiq.audit");
    private static final int RECENT = 500;

    private final Deque<AlarmEvent> recentAlarms = new ArrayDeque<>();
    private final Deque<AuditEvent> recentAudits = new ArrayDeque<>();
    private final Map<String, AlarmEvent> active = new LinkedHashMap<>();

    @Override
    public synchronized void alarm(AlarmEvent event) {
        if (event.active()) {
            active.put(event.key(), event);
        } else {
            active.remove(event.key());
        }
        add(recentAlarms, event);
    }

    @Override
    public synchronized void audit(AuditEvent event) {
        audit.info("{} {} {} {}: {} {}", event.at(), event.user(), event.action(), event.target(), event.outcome(),
                event.details());
        add(recentAudits, event);
    }

    private static <E> void add(Deque<E> deque, E event) {
        deque.addFirst(event);
        while (deque.size() > RECENT) {
            deque.removeLast();
        }
    }

    public synchronized List<AlarmEvent> activeAlarms() {
        return List.copyOf(active.values());
    }

    /** Newest first. */
    public synchronized List<AlarmEvent> recentAlarms() {
        return List.copyOf(recentAlarms);
    }

    /** Newest first. */
    public synchronized List<AuditEvent> recentAudits() {
        return List.copyOf(recentAudits);
    }
}
