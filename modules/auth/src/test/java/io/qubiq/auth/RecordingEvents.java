package io.qubiq.auth;

import io.qubiq.core.event.AlarmEvent;
import io.qubiq.core.event.AuditAction;
import io.qubiq.core.event.AuditEvent;
import io.qubiq.core.event.DataLoss;
import io.qubiq.core.event.EventPublisher;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Keeps every audit event published. */
final class RecordingEvents implements EventPublisher {

    final List<AuditEvent> audits = new CopyOnWriteArrayList<>();
    final List<AlarmEvent> alarms = new CopyOnWriteArrayList<>();

    @Override
    public void alarm(AlarmEvent event) {
        alarms.add(event);
    }

    @Override
    public void audit(AuditEvent event) {
        audits.add(event);
    }

    @Override
    public void lost(DataLoss loss) {
    }

    List<AuditEvent> of(AuditAction action) {
        return audits.stream().filter(e -> e.action() == action).toList();
    }

    AuditEvent last() {
        return audits.get(audits.size() - 1);
    }
}
