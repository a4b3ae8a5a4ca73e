package io.qubiq.historian.wal;

import io.qubiq.core.config.ConfigChecked;
import io.qubiq.core.config.Default;
import io.qubiq.core.config.Doc;
import io.qubiq.core.config.Range;
import java.util.ArrayList;
import java.util.List;

/** How the WAL supervisor watches the historian's QuestDB tables. */
@Doc("Supervision of the historian tables' write-ahead log in QuestDB.")
public record WalSupervisorConfig(
        @Doc("Run the supervisor. Off: suspended tables are neither resumed nor alarmed.")
        @Default("true")
        boolean enabled,

        @Doc("How often wal_tables() is read.")
        @Default("5000")
        @Range(min = 10, max = 3600000)
        long pollIntervalMs,

        @Doc("Wait before the first automatic resume of a table suspended for a recoverable cause; doubles"
                + " with each further attempt at the same transaction.")
        @Default("1000")
        @Range(min = 0, max = 3600000)
        long resumeBackoffInitialMs,

        @Doc("Longest wait between automatic resume attempts.")
        @Default("60000")
        @Range(min = 0, max = 86400000)
        long resumeBackoffMaxMs,

        @Doc("Automatic resumes of a table at one transaction. When it suspends again at that transaction"
                + " after this many, it is treated as a poison transaction: an alarm is raised and only an"
                + " operator resumes it.")
        @Default("3")
        @Range(min = 1, max = 1000)
        int resumeAttemptsPerTxn,

        @Doc("A table whose applied transactions (writerTxn) trail its committed ones (sequencerTxn) by more"
                + " than this is flagged as lagging in the status and logged.")
        @Default("1000")
        @Range(min = 1, max = 1000000000)
        long writerLagThresholdTxn) implements ConfigChecked {

    public static WalSupervisorConfig defaults() {
        return new WalSupervisorConfig(true, 5000, 1000, 60_000, 3, 1000);
    }

    public WalSupervisorConfig withPolling(long pollMs, long backoffInitialMs, long backoffMaxMs) {
        return new WalSupervisorConfig(enabled, pollMs, backoffInitialMs, backoffMaxMs, resumeAttemptsPerTxn,
                writerLagThresholdTxn);
    }

    public WalSupervisorConfig withResumeAttemptsPerTxn(int value) {
        return new WalSupervisorConfig(enabled, pollIntervalMs, resumeBackoffInitialMs, resumeBackoffMaxMs, value,
                writerLagThresholdTxn);
    }

    public WalSupervisorConfig withWriterLagThresholdTxn(long value) {
        return new WalSupervisorConfig(enabled, pollIntervalMs, resumeBackoffInitialMs, resumeBackoffMaxMs,
                resumeAttemptsPerTxn, value);
    }

    @Override
    public List<Violation> violations() {
        List<Violation> violations = new ArrayList<>();
        if (resumeBackoffMaxMs < resumeBackoffInitialMs) {
            violations.add(new Violation("resume_backoff_max_ms", "must be at least resume_backoff_initial_ms ("
                    + resumeBackoffInitialMs + "), was " + resumeBackoffMaxMs));
        }
        return violations;
    }
}
