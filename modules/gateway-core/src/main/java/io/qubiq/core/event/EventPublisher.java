package io.qubiq.core.event;

/**
 * Where components report alarms, operator actions and every loss of data. The application wires it to the alarm
 * engine and the audit journal; implementations must be thread-safe and must not block the caller
 * for long (components call it from their working threads).
 */
public interface EventPublisher {

    void alarm(AlarmEvent event);

    void audit(AuditEvent event);

    /**
     * Reports data the caller discarded (DESIGN.md rule 9): it goes to the loss ledger and the
     * {@code qubiq_data_lost_items_total} metric, and a loss nobody asked for raises an alarm.
     */
    void lost(DataLoss loss);

    /** Discards everything: for tools and tests that do not care. */
    static EventPublisher none() {
        return new EventPublisher() {
            @Override
            public void alarm(AlarmEvent event) {
            }

            @Override
            public void audit(AuditEvent event) {
            }

            @Override
            public void lost(DataLoss loss) {
            }
        };
    }
}
