package io.qubiq.app.events;

import io.qubiq.audit.AuditJournal;
import io.qubiq.app.losses.LossRecorder;
import io.qubiq.core.event.AlarmEvent;
import io.qubiq.core.event.AuditEvent;
import io.qubiq.core.event.DataLoss;
import io.qubiq.core.event.EventPublisher;
import io.qubiq.core.text.LogSafe;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where alarms and audit events go today: the set of active alarms (in memory: a restart starts
 * with none; each component logs its own alarms where it raises them), every audit event on the
 * {@code qubiq.audit} logger (one line each: control characters in the user, target, outcome and details
 * are escaped by {@link LogSafe}, so a typed value cannot forge a line), and a bounded list of recent events for the console. Every audit event also goes to the durable audit journal
 * ({@link AuditJournal}, on its own store-and-forward channel) once {@link #journalTo} connected it.
 * Every loss goes to the {@link LossRecorder} (log, ledger, metrics, alarm) once {@link #recordLossesIn}
 * connected it; before, it is logged only.
 *
 * <p>Threading: safe for concurrent publishers; readers get copies.
 */
public final class EventJournal implements EventPublisher {

    private static final Logger audit = LoggerFactory.getLogger("qubiq.audit");
    private static final int RECENT = 500;

    private final Deque<AlarmEvent> recentAlarms = new ArrayDeque<>();
    private final Deque<AuditEvent> recentAudits = new ArrayDeque<>();
    private final Map<String, AlarmEvent> active = new LinkedHashMap<>();
    private AuditJournal journal;
    private volatile LossRecorder losses;

    /** From now on every audit event is also journaled durably. */
    public synchronized void journalTo(AuditJournal journal) {
        this.journal = journal;
    }

    @Override
    public synchronized void alarm(AlarmEvent event) {
        if (event.active()) {
            active.put(event.key(), event);
        } else {
            active.remove(event.key());
        }
        add(recentAlarms, event);
    }

    /**
     * Logs the event, keeps it among the recent ones and journals it. The journal is called outside
     * this object's lock: its channel may be raising an alarm here from its forwarder thread.
     */
    @Override
    public void audit(AuditEvent event) {
        AuditJournal target;
        synchronized (this) {
            audit.info("{} {} {} {}: {} {}", event.at(), LogSafe.text(event.user()), event.action(),
                    LogSafe.text(event.target()), LogSafe.text(event.outcome()), logSafe(event.details()));
            add(recentAudits, event);
            target = journal;
        }
        if (target != null) {
            target.record(event);
        }
    }

    /** The details as {@code {key=value, ...}}, each key and value with its control characters escaped. */
    private static String logSafe(Map<String, String> details) {
        StringBuilder out = new StringBuilder("{");
        details.forEach((key, value) -> out.append(out.length() > 1 ? ", " : "").append(LogSafe.text(key)).append('=')
                .append(LogSafe.text(value)));
        return out.append('}').toString();
    }

    /** From now on every loss also goes to the loss ledger, its metrics and its alarm. */
    public void recordLossesIn(LossRecorder recorder) {
        this.losses = recorder;
    }

    /**
     * Hands the loss to the recorder (log, ledger, metrics, alarm), outside this object's lock (the
     * recorder's alarms come back here from its own thread); before it is connected, only logs it.
     */
    @Override
    public void lost(DataLoss loss) {
        LossRecorder recorder = losses;
        if (recorder != null) {
            recorder.record(loss);
        } else {
            LossRecorder.log(loss);
        }
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
