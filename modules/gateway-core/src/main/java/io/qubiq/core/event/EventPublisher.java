package io.qubiq.core.event;

/**
 * Where components report alarms and operator actions. The application wires it to the alarm
 * engine and the audit journal; implementations must be thread-safe and must not block the caller
 * for long (components call it from their working threads).
 */
public interface EventPublisher {

    void alarm(AlarmEvent event);

    void audit(AuditEvent event);

    /** Discards everything: for tools and tests that do not care. */
    static EventPublisher none() {
        return new EventPublisher() {
            @Override
            public void alarm(AlarmEvent event) {
            }

            @Override
            public void audit(AuditEvent event) {
            }
        };
    }
}
