package io.qubiq.auth;

/** No user by that name exists (or it was deleted meanwhile). */
public final class UserNotFoundException extends AccountException {

    public UserNotFoundException(String message) {
        super(message);
    }
}
