package io.qubiq.storeforward;

/** What happened to a batch a producer handed to a channel, when the call returned normally. */
public enum SubmitOutcome {
    /** Written and flushed at the destination on the fast path. */
    DELIVERED,
    /** Appended to the durable buffer; the forwarder will deliver it in order. */
    BUFFERED
}
