package io.qubiq.historian;

/** Which samples of a tag the historian stores. */
public enum StorageMode {
    /** Only samples that differ from the last stored one (beyond the deadband), or change quality. */
    ON_CHANGE,
    /** Every sample, subject only to the minimum interval. */
    ALWAYS
}
