package io.qubiq.core.event;

import java.time.Instant;

/**
 * A QuestDB table stopped applying its write-ahead log and will not be resumed automatically
 * (raised), or runs again (cleared). Raised when the suspension's cause is not one that passes on
 * its own, or when the table suspended again at the same transaction after an automatic resume: a
 * poison transaction that only an operator can skip.
 *
 * @param table        the QuestDB table
 * @param writerTxn    the last transaction applied to the table
 * @param sequencerTxn the last transaction committed to its sequencer
 * @param errorTag     QuestDB's error tag ({@code DISK FULL}, ...; empty when it gave none)
 * @param errorMessage QuestDB's error message
 * @param reason       why the gateway stopped resuming it on its own
 */
public record WalSuspendedAlarm(String table, boolean active, Instant at, long writerTxn, long sequencerTxn,
                                String errorTag, String errorMessage, String reason) implements AlarmEvent {

    @Override
    public String key() {
        return "wal-suspended/" + table;
    }

    @Override
    public String source() {
        return "historian";
    }

    @Override
    public AlarmSeverity severity() {
        return AlarmSeverity.CRITICAL;
    }

    @Override
    public String message() {
        if (!active) {
            return String.format("QuestDB table %s applies its write-ahead log again (transaction %d of %d)", table,
                    writerTxn, sequencerTxn);
        }
        String cause = errorTag.isEmpty() ? errorMessage : errorTag + ": " + errorMessage;
        return String.format("QuestDB table %s is suspended at transaction %d (%d committed, not yet applied): %s."
                        + " %s Resume it past transaction %d once the cause is understood.", table, writerTxn,
                sequencerTxn - writerTxn, cause.isEmpty() ? "no cause given" : cause, reason, writerTxn + 1);
    }
}
