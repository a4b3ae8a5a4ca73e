package io.qubiq.core.disk;

/** How much room a watched file system has left, by the configured thresholds. */
public enum DiskState {
    /** Free space above the warning threshold. */
    OK,
    /** Free space at or below the warning threshold, above the critical one. */
    WARNING,
    /** Free space at or below the critical threshold: stores stop growing (their critical reserve). */
    CRITICAL;

    /** The value of the {@code qubiq_disk_state} gauge: 0, 1 or 2. */
    public int level() {
        return ordinal();
    }
}
