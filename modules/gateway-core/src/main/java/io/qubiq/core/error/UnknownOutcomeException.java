package io.qubiq.core.error;

/**
 * The write was sent and no verdict came back (a timeout after send): it may have committed. The
 * caller must not treat it as transient. It counts as one delivery attempt; past the attempt cap
 * the item is quarantined as "outcome unknown", unless the sink writes idempotently.
 */
public final class UnknownOutcomeException extends GatewayException {

    private final boolean timedOut;

    public UnknownOutcomeException(String message, Throwable cause) {
        this(message, cause, false);
    }

    private UnknownOutcomeException(String message, Throwable cause, boolean timedOut) {
        super(message, cause);
        this.timedOut = timedOut;
    }

    /**
     * The write ran out of time (a statement or request timeout) while the destination was still
     * working on it. The destination is up but slower than the timeout allows for this much work:
     * the channel retries with fewer items at a time rather than the same batch again.
     */
    public static UnknownOutcomeException timedOut(String message, Throwable cause) {
        return new UnknownOutcomeException(message, cause, true);
    }

    /** Whether the write was cut off by a timeout (see {@link #timedOut}). */
    public boolean isTimeout() {
        return timedOut;
    }

    @Override
    public FailureClass failureClass() {
        return FailureClass.UNKNOWN_OUTCOME;
    }
}
