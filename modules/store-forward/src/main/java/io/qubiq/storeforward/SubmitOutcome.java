package io.qubiq.storeforward;

/** What happened to a batch a producer handed to a channel, when the call returned normally. */
public enum SubmitOutcome {
    /** Written and flushed at the destination on the producer's thread (a synchronous channel), or empty. */
    DELIVERED,
    /**
     * Handed to the channel's forwarder in memory while nothing is buffered: it writes the batch next,
     * and buffers it if that fails. Lost only if the process dies first (see {@code HandOff}).
     */
    HANDED_OFF,
    /** Appended to the durable buffer; the forwarder will deliver it in order. */
    BUFFERED
}
