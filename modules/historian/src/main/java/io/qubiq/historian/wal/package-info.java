/**
 * Supervision of the historian tables' write-ahead log in QuestDB: resumes tables suspended for a
 * recoverable cause, alarms on poison transactions, and offers the audited operator action that
 * skips one. See {@link io.qubiq.historian.wal.WalSupervisor}.
 */
package io.qubiq.historian.wal;
