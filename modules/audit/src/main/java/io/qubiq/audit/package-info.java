/**
 * The audit journal: every operator action ({@link io.qubiq.core.event.AuditEvent}) as a
 * {@link io.qubiq.audit.JournalEntry} with a unique id, carried by its own store-and-forward channel
 * into the {@link io.qubiq.audit.LocalAuditStore}, an append-only, checksummed, fsynced journal on
 * local disk that answers filtered queries newest first.
 *
 * <p><b>What it writes:</b> segment files under {@code <data>/audit/journal/} (format in
 * {@code docs/formats/audit-journal.md}); damaged parts found on open go to {@code corrupt/} there.
 *
 * <p><b>Retriable</b> (transient): any I/O failure of the journal directory (disk full, unwritable,
 * missing); the channel keeps the batch and retries it. <b>Not retriable</b> (permanent): an entry
 * too large for one segment, named by its index. Writes are idempotent by entry id, so a replay
 * after a crash stores nothing twice. See {@code docs/audit.md}.
 */
package io.qubiq.audit;
