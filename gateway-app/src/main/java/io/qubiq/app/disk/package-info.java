/**
 * Free disk space: {@link io.qubiq.app.disk.DiskWatcher} samples the data directory (and the embedded
 * QuestDB's, whose size it also sums) on its own thread, raises and clears the disk-space alarm, lists a
 * critical disk on {@code /health} and answers {@code DiskReserve.critical()} for the store-and-forward
 * channels.
 *
 * <p><b>Owns</b> the disk-space verdict and its alarm.
 *
 * <p><b>Must not</b> delete, trim or move anything to make room, and must not block a caller: channels ask
 * it on their append path, so {@code critical()} reads a volatile field and never samples.
 */
package io.qubiq.app.disk;
