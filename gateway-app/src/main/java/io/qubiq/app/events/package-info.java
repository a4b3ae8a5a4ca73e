/**
 * Where the components' events go: {@link io.qubiq.app.events.EventJournal} is the gateway's
 * {@code EventPublisher}. It keeps the active alarms by key (a clear removes its raise) and the latest 500
 * raises and clears, logs every audit event on {@code qubiq.audit}, keeps the latest 500 and hands each to
 * the durable audit journal, and hands every data loss to the loss recorder.
 * {@link io.qubiq.app.events.JournalAlarms} is the console's view of the alarms.
 *
 * <p><b>Owns</b> the in-memory alarm list (alarms are not persisted: a restart starts with none until the
 * components raise them again).
 *
 * <p><b>Must not</b> decide when an alarm is raised or cleared (each component does, with its own
 * figures), and must not block a publisher for long or call the journal or the loss recorder while holding
 * its own lock: they publish back into it from their threads.
 */
package io.qubiq.app.events;
