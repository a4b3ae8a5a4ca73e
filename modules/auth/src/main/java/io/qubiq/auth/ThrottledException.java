package io.qubiq.auth;

import java.time.Duration;

/**
 * Too many wrong guesses at a password for this user from this address ({@link SignInThrottle}): the attempt
 * was refused without checking anything. Try again after {@link #retryAfter}.
 */
public final class ThrottledException extends AccountException {

    private final Duration retryAfter;

    public ThrottledException(String message, Duration retryAfter) {
        super(message);
        this.retryAfter = retryAfter;
    }

    public Duration retryAfter() {
        return retryAfter;
    }
}
