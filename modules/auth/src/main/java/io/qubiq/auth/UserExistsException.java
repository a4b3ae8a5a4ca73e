package io.qubiq.auth;

/** A user with that name already exists (names are compared in lower case). */
public final class UserExistsException extends AccountException {

    public UserExistsException(String message) {
        super(message);
    }
}
