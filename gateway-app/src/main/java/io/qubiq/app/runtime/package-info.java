/**
 * The process around the gateway: the data directory and its lock ({@link io.qubiq.app.runtime.DataDirectory}:
 * one process at a time, the holder's PID named), the rolling log file ({@link io.qubiq.app.runtime.LogSetup}),
 * SIGTERM and SIGINT ({@link io.qubiq.app.runtime.SignalShutdown}: the first releases the main thread, a
 * second halts), SIGHUP ({@link io.qubiq.app.runtime.SignalReload}: the configuration file read again, on a
 * thread of its own) and the build's version ({@link io.qubiq.app.runtime.BuildInfo}).
 *
 * <p><b>Owns</b> what a process holds for its whole life: the lock, the log appender, the signal handlers.
 *
 * <p><b>Must not</b> touch the disk before the configuration is valid, and a signal handler must not do
 * the shutdown itself: it only counts and releases; the main thread stops the components.
 */
package io.qubiq.app.runtime;
