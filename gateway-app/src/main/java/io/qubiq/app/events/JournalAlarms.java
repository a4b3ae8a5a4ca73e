package io.qubiq.app.events;

import io.qubiq.console.AlarmAccess;
import io.qubiq.core.event.AlarmEvent;
import java.util.List;

/** The console's view of the alarms the {@link EventJournal} holds. */
public final class JournalAlarms implements AlarmAccess {

    private final EventJournal journal;

    public JournalAlarms(EventJournal journal) {
        this.journal = journal;
    }

    @Override
    public List<AlarmEvent> active() {
        return journal.activeAlarms();
    }

    @Override
    public List<AlarmEvent> recent() {
        return journal.recentAlarms();
    }
}
