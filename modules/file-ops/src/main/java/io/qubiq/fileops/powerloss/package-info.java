/**
 * Power-loss testing for any store that writes through {@link io.qubiq.fileops.FileOps}: a
 * {@link io.qubiq.fileops.powerloss.RecordingFileOps} logs a workload's file operations and
 * barriers, {@link io.qubiq.fileops.powerloss.CrashStates} lists the states a power cut could
 * leave (the crash model is stated there), and each {@link
 * io.qubiq.fileops.powerloss.CrashState} is replayed into a fresh directory for the store to
 * reopen. Test support that lives in main code so every store's tests can use it; nothing in the
 * gateway calls it.
 */
package io.qubiq.fileops.powerloss;
