package io.qubiq.auth;

/** A user, role or token name breaks the naming rules; the message gives them. */
public final class InvalidNameException extends AccountException {

    public InvalidNameException(String message) {
        super(message);
    }
}
