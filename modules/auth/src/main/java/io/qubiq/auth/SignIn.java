package io.qubiq.auth;

import io.qubiq.core.event.AuditAction;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The sign-in and sign-out flow: throttle, password check, session, audit.
 *
 * <p>Each attempt first reserves a slot with {@link SignInThrottle} (counted before any hashing, keyed
 * by whether the typed name is a user); an attempt that must wait is refused at once, without hashing.
 * Then it takes a place at the {@link CheckGate}; when every place is taken it is refused as
 * {@link SignInResult.Busy} (its slot returned uncounted). Otherwise the password is checked (one
 * Argon2id verification, also for unknown users) and the slot settled: a success forgets the counter,
 * a failure counts.
 *
 * <p>Audit: a sign-in is journaled as {@code SIGN_IN} with the new session's key. Every refusal
 * ({@code SIGN_IN_FAILED} with the true reason: unknown user, wrong password, user disabled, throttled,
 * busy) goes through the {@link RefusalDigest}, which journals the first of each address at once and
 * summarizes the rest, so a flood of refused sign-ins cannot flood the journal.
 *
 * <p>While a store is damaged ({@link Auth#damage}) every attempt is refused as {@link SignInResult.Unavailable}
 * before anything else, and audited like any refusal.
 *
 * <p>Stateless itself; safe for concurrent use.
 */
public final class SignIn {

    /** What a {@link SignInResult.Busy} answer tells the caller to wait. */
    static final Duration BUSY_RETRY = Duration.ofSeconds(1);

    private final UserStore users;
    private final SessionManager sessions;
    private final SignInThrottle throttle;
    private final CheckGate gate;
    private final AuditTrail audit;
    private final RefusalDigest refusals;
    private final List<StoreDamage> damage;

    SignIn(UserStore users, SessionManager sessions, SignInThrottle throttle, CheckGate gate, AuditTrail audit,
           RefusalDigest refusals, List<StoreDamage> damage) {
        this.damage = List.copyOf(damage);
        this.users = users;
        this.sessions = sessions;
        this.throttle = throttle;
        this.gate = gate;
        this.audit = audit;
        this.refusals = refusals;
    }

    /** Tries to sign {@code typedUser} in from remote address {@code from}. */
    public SignInResult signIn(String typedUser, String password, String from) {
        String who = AuditTrail.printable(typedUser.strip());
        if (!damage.isEmpty()) {
            refuse(who, "the user store is damaged", from, Duration.ZERO);
            return new SignInResult.Unavailable(damage.get(0).message());
        }
        SignInThrottle.Admission admission = throttle.reserve(typedUser, from, users.exists(typedUser));
        if (admission instanceof SignInThrottle.Admission.MustWait mustWait) {
            refuse(who, "throttled", from, mustWait.retryAfter());
            return new SignInResult.Refused(mustWait.retryAfter(), true);
        }
        SignInThrottle.Slot slot = ((SignInThrottle.Admission.Admitted) admission).slot();
        if (!gate.tryEnter()) {
            throttle.released(slot);
            refuse(who, "busy: too many sign-ins being checked", from, BUSY_RETRY);
            return new SignInResult.Busy(BUSY_RETRY);
        }
        UserStore.Check check;
        try {
            check = users.check(typedUser, password);
        } catch (RuntimeException e) {
            throttle.released(slot);
            throw e;
        } finally {
            gate.leave();
        }
        if (check.outcome() == UserStore.Outcome.OK) {
            UserAccount user = check.user().orElseThrow();
            throttle.succeeded(slot);
            SessionManager.NewSession session = sessions.create(user.name());
            audit.record(user.name(), AuditAction.SIGN_IN, "user/" + user.name(), "signed in", from,
                    "session", session.session().key().substring(0, 12));
            return new SignInResult.SignedIn(session, user);
        }
        Duration next = throttle.failed(slot);
        String reason = switch (check.outcome()) {
            case UNKNOWN_USER -> "unknown user";
            case DISABLED -> "user disabled";
            default -> "wrong password";
        };
        refuse(who, reason, from, next);
        return new SignInResult.Refused(next, false);
    }

    private void refuse(String who, String reason, String from, Duration retryAfter) {
        refusals.refused(who, AuditAction.SIGN_IN_FAILED, "user/" + who, reason, from,
                "retry_after_ms", Long.toString(retryAfter.toMillis()));
    }

    /** Journals the refusal summaries of a window that has passed (sign-ins and setup claims share them). */
    void flushRefusals() {
        refusals.flushDue();
    }

    /** Ends the session with this id; audited when it was live. Returns whether it was. */
    public boolean signOut(String sessionId, String from) {
        Optional<SessionManager.Session> ended = sessionId == null ? Optional.empty() : sessions.end(sessionId);
        ended.ifPresent(s -> audit.record(s.user(), AuditAction.SIGN_OUT, "user/" + s.user(), "signed out", from,
                "session", s.key().substring(0, 12)));
        return ended.isPresent();
    }
}
