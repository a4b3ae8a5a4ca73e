package io.qubiq.core.error;

/**
 * The write was sent and no verdict came back (a timeout after send): it may have committed. The
 * caller must not treat it as transient. It counts as one delivery attempt; past the attempt cap
 * the item is quarantined as "outcome unknown", unless the sink writes idempotently.
 */
public final class UnknownOutcomeException extends GatewayException {

    public UnknownOutcomeException(String message, Throwable cause) {
        super(message, cause);
    }

    @Override
    public FailureClass failureClass() {
        return FailureClass.UNKNOWN_OUTCOME;
    }
}
