package io.qubiq.auth;

import io.qubiq.core.event.AuditAction;
import java.time.Duration;
import java.util.Optional;

/**
 * The sign-in and sign-out flow: throttle, password check, session, audit.
 *
 * <p>Each attempt first asks {@link SignInThrottle}; a throttled attempt is refused without hashing
 * (so a flood costs no CPU) and audited as {@code SIGN_IN_FAILED / throttled}. Otherwise the password is
 * checked (one Argon2id verification, also for unknown users), and the result audited: {@code SIGN_IN}
 * with the new session's key, or {@code SIGN_IN_FAILED} with the true reason (unknown user, wrong
 * password, user disabled). Stateless itself; safe for concurrent use.
 */
public final class SignIn {

    private final UserStore users;
    private final SessionManager sessions;
    private final SignInThrottle throttle;
    private final AuditTrail audit;

    SignIn(UserStore users, SessionManager sessions, SignInThrottle throttle, AuditTrail audit) {
        this.users = users;
        this.sessions = sessions;
        this.throttle = throttle;
        this.audit = audit;
    }

    /** Tries to sign {@code typedUser} in from remote address {@code from}. */
    public SignInResult signIn(String typedUser, String password, String from) {
        String who = AuditTrail.printable(typedUser.strip());
        Duration wait = throttle.waitBefore(typedUser, from);
        if (!wait.isZero()) {
            audit.record(who, AuditAction.SIGN_IN_FAILED, "user/" + who, "throttled", from,
                    "retry_after_ms", Long.toString(wait.toMillis()));
            return new SignInResult.Refused(wait, true);
        }
        UserStore.Check check = users.check(typedUser, password);
        if (check.outcome() == UserStore.Outcome.OK) {
            UserAccount user = check.user().orElseThrow();
            throttle.recordSuccess(typedUser);
            SessionManager.NewSession session = sessions.create(user.name());
            audit.record(user.name(), AuditAction.SIGN_IN, "user/" + user.name(), "signed in", from,
                    "session", session.session().key().substring(0, 12));
            return new SignInResult.SignedIn(session, user);
        }
        Duration next = throttle.recordFailure(typedUser, from);
        String reason = switch (check.outcome()) {
            case UNKNOWN_USER -> "unknown user";
            case DISABLED -> "user disabled";
            default -> "wrong password";
        };
        audit.record(who, AuditAction.SIGN_IN_FAILED, "user/" + who, reason, from,
                "retry_after_ms", Long.toString(next.toMillis()));
        return new SignInResult.Refused(next, false);
    }

    /** Ends the session with this id; audited when it was live. Returns whether it was. */
    public boolean signOut(String sessionId, String from) {
        Optional<SessionManager.Session> ended = sessionId == null ? Optional.empty() : sessions.end(sessionId);
        ended.ifPresent(s -> audit.record(s.user(), AuditAction.SIGN_OUT, "user/" + s.user(), "signed out", from,
                "session", s.key().substring(0, 12)));
        return ended.isPresent();
    }
}
