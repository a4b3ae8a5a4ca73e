package io.qubiq.auth;

/**
 * A user or token operation was refused; nothing was changed. Each subclass tells the caller what
 * to answer: {@link PasswordRejectedException} and {@link InvalidNameException} (fix the input),
 * {@link UserNotFoundException} (no such user), {@link UserExistsException} and {@link LastAdminException}
 * (conflict with the current state), {@link NotPermittedException} (the actor may not do this),
 * {@link ThrottledException} (too many wrong guesses: wait).
 */
public abstract class AccountException extends RuntimeException {

    protected AccountException(String message) {
        super(message);
    }
}
