/**
 * The audit journal as the gateway runs it: {@link io.qubiq.app.audit.AuditJournal} gives every audit
 * event an entry id and submits it to the {@code audit} store-and-forward channel (synchronous submit:
 * an audited action returns only once its entry is journaled or buffered, on the acting thread), whose
 * sink is the {@code LocalAuditStore} of {@code modules/audit}, or, with {@code audit.forward_to},
 * {@link io.qubiq.app.audit.ForwardingSink}, which also hands rows ({@link io.qubiq.app.audit.AuditRows})
 * to a QuestDB or SQL connection's channel. {@link io.qubiq.app.audit.AuditJournalAccess} is the console's
 * read view.
 *
 * <p><b>Owns</b> the journal's runtime: entry ids, events held before start, the not-journaled alarm and
 * ERROR log, and the mapping of entries to forward rows.
 *
 * <p><b>Must not</b> drop an audit event silently (every event the channel does not take is logged at
 * ERROR with its content and raises {@code AuditNotJournaledAlarm}), and must not define the journal's
 * storage format or queries: those are {@code modules/audit}'s. Issue 21 moves this runtime into that
 * module.
 */
package io.qubiq.app.audit;
