package io.qubiq.auth;

/** A new password breaks the policy (too short or too long); the message says what is required. */
public final class PasswordRejectedException extends AccountException {

    public PasswordRejectedException(String message) {
        super(message);
    }
}
