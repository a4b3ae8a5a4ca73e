package io.qubiq.auth;

import java.time.Duration;

/**
 * The answer to a sign-in attempt. The console tells a refused user only "wrong user name or password"
 * (and when to try again), whatever the actual reason: the reason goes to the audit journal only.
 */
public sealed interface SignInResult {

    /** Signed in: set {@code session.id()} as the cookie and hand {@code session.csrfToken()} to the page. */
    record SignedIn(SessionManager.NewSession session, UserAccount user) implements SignInResult {
    }

    /**
     * Refused. {@code retryAfter} is how long the next attempt for this user from this address must wait
     * (zero when it may try at once); {@code throttled} when this attempt was refused for that reason,
     * without checking the password.
     */
    record Refused(Duration retryAfter, boolean throttled) implements SignInResult {
    }

    /**
     * Not checked: as many password checks as the gateway runs at once were already running. Nothing
     * was counted against the user; try again after {@code retryAfter}.
     */
    record Busy(Duration retryAfter) implements SignInResult {
    }

    /**
     * Not checked: the user or token store is damaged (see {@link Auth#damage}), so nobody can sign in until an
     * operator recovers it. {@code reason} names the file and the recovery; the console shows it (503).
     */
    record Unavailable(String reason) implements SignInResult {
    }
}
