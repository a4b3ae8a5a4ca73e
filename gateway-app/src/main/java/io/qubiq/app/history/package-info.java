/**
 * The console's access to the historian: {@link io.qubiq.app.history.HistorianAccess} parses history
 * requests, runs them through the historian's {@code HistoryQuery}, exposes the historian's and the WAL
 * supervisor's status, and passes the operator's "skip the failed WAL transaction" to the
 * {@code WalSupervisor}, translating their failures into HTTP answers (400, 404, 422, 502, 503).
 *
 * <p><b>Owns</b> that translation only.
 *
 * <p><b>Must not</b> query QuestDB itself, keep state, or hold a rule about history: those are
 * {@code modules/historian}'s. (Issue 21 moves the choice of status codes into the console module.)
 */
package io.qubiq.app.history;
