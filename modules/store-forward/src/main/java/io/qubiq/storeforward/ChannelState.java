package io.qubiq.storeforward;

/** What a channel is doing now, as the console and metrics show it. */
public enum ChannelState {
    /** Nothing buffered, nothing to do. */
    IDLE,
    /** Nothing buffered; the last write went straight to the destination. */
    FAST_PATH,
    /** Delivering buffered items. */
    DRAINING,
    /** The last attempt failed; waiting before retrying the same batch. */
    BACKING_OFF,
    /** The connection monitor says the destination is DOWN; no attempts are made. */
    GATED,
    /** The buffer is at its limit: dropping its oldest items or refusing new ones, per its policy. */
    FULL,
    /** Delivery is stopped until an operator acts (the quarantine is full). */
    STALLED,
    /**
     * The forwarder died of an unexpected failure (a sink or codec bug, an {@code Error} such as
     * {@code OutOfMemoryError}) and is restarted with backoff; shown until the restarted forwarder has
     * delivered normally again. Buffered items are kept.
     */
    FAILED,
    /** Stopped. */
    STOPPED
}
