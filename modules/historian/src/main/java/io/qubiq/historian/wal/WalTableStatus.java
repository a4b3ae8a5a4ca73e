package io.qubiq.historian.wal;

import java.time.Instant;
import java.util.Optional;

/**
 * What the supervisor knows of one history table, for the console.
 *
 * @param table          the QuestDB table
 * @param present        whether {@code wal_tables()} listed it at the last poll
 * @param suspended      whether its WAL apply is suspended
 * @param writerTxn      last transaction applied to the table
 * @param sequencerTxn   last transaction committed to its sequencer
 * @param errorTag       QuestDB's error tag of the suspension (empty when none)
 * @param errorMessage   QuestDB's error message of the suspension
 * @param cause          the supervisor's reading of the cause, while suspended
 * @param autoResumes    automatic resumes since the table last advanced
 * @param autoResumesTotal automatic resumes since the supervisor started
 * @param poisoned       suspended for a cause the supervisor does not resume; an alarm is active and
 *                       an operator must resume it
 * @param lagging        the writer trails the sequencer by more than the configured threshold
 * @param lastPollAt     when the table was last read
 */
public record WalTableStatus(String table, boolean present, boolean suspended, long writerTxn, long sequencerTxn,
                             String errorTag, String errorMessage, Optional<SuspensionCause> cause, int autoResumes,
                             long autoResumesTotal,
                             boolean poisoned, boolean lagging, Optional<Instant> lastPollAt) {
}
