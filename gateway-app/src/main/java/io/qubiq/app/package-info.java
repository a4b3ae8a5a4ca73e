/**
 * The application: {@link io.qubiq.app.Main} (the {@code qubiq} command), {@link io.qubiq.app.GatewayRunner}
 * (one gateway process: lock the data directory, start, wait for a signal, stop within the grace period),
 * {@link io.qubiq.app.AdminResetCommand}, the exit codes ({@link io.qubiq.app.ExitCode}) and
 * {@link io.qubiq.app.Gateway}, the wiring: every concrete component is constructed there by hand, in
 * dependency order, and added to the lifecycle as required or isolated.
 *
 * <p><b>Owns</b> which components run, in which order, and what each is handed. It is the only code that
 * knows every concrete class; the sub-packages hold what the wiring needs beside the modules (the console's
 * access views, the audit journal's runtime, the embedded QuestDB, the loss recorder, metrics binding).
 *
 * <p><b>Must not</b> hold a feature's logic: a rule about tags, delivery, storage or protocols belongs in
 * the module named after it, and new work here should be construction and ordering only. No classpath
 * scanning and no annotations that create objects. Nothing outside {@code gateway-app} may depend on
 * {@code io.qubiq.app} ({@code ArchitectureTest} enforces it). Nothing on disk is touched before the
 * configuration is known to be valid.
 */
package io.qubiq.app;
