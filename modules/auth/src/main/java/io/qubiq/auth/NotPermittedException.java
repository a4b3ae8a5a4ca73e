package io.qubiq.auth;

/** The acting user lacks the permission the operation requires (or it is someone else's token). */
public final class NotPermittedException extends AccountException {

    public NotPermittedException(String message) {
        super(message);
    }
}
