package io.qubiq.core.error;

/**
 * The destination or the way to it is unavailable (connection refused or reset, broker down, 5xx).
 * Nothing was written. The caller keeps the batch and retries it later, indefinitely; a transient
 * failure never counts toward a delivery-attempt cap.
 */
public final class TransientException extends GatewayException {

    public TransientException(String message, Throwable cause) {
        super(message, cause);
    }

    public TransientException(String message) {
        this(message, null);
    }

    @Override
    public FailureClass failureClass() {
        return FailureClass.TRANSIENT;
    }
}
