/**
 * Free disk space: the thresholds an operator sets ({@link io.qubiq.core.disk.FreeSpaceThreshold}),
 * the check that turns a sample of a file system's space into a {@link io.qubiq.core.disk.DiskState}
 * and an alarm on each change ({@link io.qubiq.core.disk.DiskSpaceCheck}), and the question a
 * store asks before it grows ({@link io.qubiq.core.disk.DiskReserve}). JDK only; the application
 * samples on a schedule and wires the answer to the stores.
 */
package io.qubiq.core.disk;
