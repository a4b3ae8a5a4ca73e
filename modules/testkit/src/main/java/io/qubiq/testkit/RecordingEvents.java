package io.qubiq.testkit;

import io.qubiq.core.event.AlarmEvent;
import io.qubiq.core.event.AuditEvent;
import io.qubiq.core.event.DataLoss;
import io.qubiq.core.event.EventPublisher;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Keeps every alarm, audit event and data loss it is given, in order, for assertions. */
public final class RecordingEvents implements EventPublisher {

    private final List<AlarmEvent> alarms = new CopyOnWriteArrayList<>();
    private final List<AuditEvent> audits = new CopyOnWriteArrayList<>();
    private final List<DataLoss> losses = new CopyOnWriteArrayList<>();

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
        losses.add(loss);
    }

    public List<DataLoss> losses() {
        return List.copyOf(losses);
    }

    public List<AlarmEvent> alarms() {
        return List.copyOf(alarms);
    }

    public <A extends AlarmEvent> List<A> alarms(Class<A> kind) {
        return alarms.stream().filter(kind::isInstance).map(kind::cast).toList();
    }

    public List<AuditEvent> audits() {
        return List.copyOf(audits);
    }
}
