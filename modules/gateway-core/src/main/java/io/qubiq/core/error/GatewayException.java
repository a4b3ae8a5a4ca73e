package io.qubiq.core.error;

/**
 * The root of the gateway's typed failures. A subclass says what the caller must do, never just
 * what went wrong: see {@link FailureClass}. Sinks and connectors throw only these, so the
 * forwarder can decide without parsing messages.
 */
public abstract sealed class GatewayException extends Exception
        permits TransientException, PermanentException, UnknownOutcomeException, ConfigurationException {

    protected GatewayException(String message, Throwable cause) {
        super(message, cause);
    }

    public abstract FailureClass failureClass();
}
