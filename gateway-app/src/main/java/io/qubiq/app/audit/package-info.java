/**
 * The audit journal's application side. The runtime itself ({@code AuditJournal}: entry ids, events held
 * before start, the synchronous {@code audit} channel, the not-journaled alarm) lives in
 * {@code modules/audit}; here: {@link io.qubiq.app.audit.AuditForwardTargets} resolves {@code
 * audit.forward_to} to a QuestDB or SQL connection's channel with the rows of
 * {@link io.qubiq.app.audit.AuditRows} for its kind, and {@link io.qubiq.app.audit.AuditJournalAccess} is
 * the console's read view.
 *
 * <p><b>Owns</b> the mapping of journal entries to forward rows (only the application knows the connection
 * kinds and their item types).
 *
 * <p><b>Must not</b> run the journal or define its storage format or queries: those are {@code modules/audit}'s.
 */
package io.qubiq.app.audit;
