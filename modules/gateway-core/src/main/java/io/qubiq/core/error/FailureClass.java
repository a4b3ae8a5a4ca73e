package io.qubiq.core.error;

/** What the caller of a failed operation must do. Each typed exception maps to exactly one. */
public enum FailureClass {
    /** The destination or transport is unavailable: keep the batch, back off, retry it head-of-line. */
    TRANSIENT,
    /** The data itself was rejected (constraint, schema, type): quarantine the offending items. */
    PERMANENT,
    /** The request was sent and then timed out: it may have committed. Count an attempt. */
    UNKNOWN_OUTCOME,
    /**
     * The component is misconfigured: tell the operator which setting is wrong; the data is not to
     * blame, so nothing is counted against it (store-and-forward keeps it buffered and retries after
     * backoff, as for an outage, until the setting is fixed).
     */
    CONFIGURATION
}
