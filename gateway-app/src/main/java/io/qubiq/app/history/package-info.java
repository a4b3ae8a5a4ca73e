/**
 * The console's access to the historian: {@link io.qubiq.app.history.HistorianAccess} parses history
 * requests, runs them through the historian's {@code HistoryQuery}, exposes the historian's and the WAL
 * supervisor's status, and passes the operator's "skip the failed WAL transaction" to the
 * {@code WalSupervisor}, translating their failures into the console's {@code RequestFailure} kinds (invalid request, not
 * found, limit exceeded, QuestDB unavailable or failing).
 *
 * <p><b>Owns</b> that translation only; the console chooses the HTTP statuses.
 *
 * <p><b>Must not</b> query QuestDB itself, keep state, or hold a rule about history: those are
 * {@code modules/historian}'s.
 */
package io.qubiq.app.history;
