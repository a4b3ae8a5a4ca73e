package io.qubiq.auth;

import io.qubiq.core.event.AuditAction;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * User and API-token management on behalf of a signed-in principal: checks the permission, makes the
 * change in {@link UserStore} or {@link ApiTokens}, ends sessions where the change requires it, and
 * audits every attempt, refused ones included (outcome {@code refused: <why>}).
 *
 * <p>Who may do what: {@link Permission#MANAGE_USERS} for anything on other users and for listing users;
 * any user for their own password (with the current one) and their own API tokens. A request authenticated
 * by an API token may not create API tokens (so a token can never mint one that outlives it or its
 * revocation); tokens are created from a signed-in session.
 *
 * <p>Credential consequences: a password set by an administrator ends all the user's sessions and revokes
 * all their API tokens; a user changing their own password keeps the one credential they did it with (the
 * session, or the API token) and loses every other session and token; a disable ends the sessions (tokens
 * are refused while disabled); a delete ends the sessions and revokes the tokens. Role changes need no
 * credential change: permissions are looked up on every request.
 *
 * <p>Guesses at the current password in {@link #changeOwnPassword} count against the same
 * {@link SignInThrottle} counter as sign-ins of that user from that address, reserved before any hashing;
 * a throttled attempt is refused with {@link ThrottledException} without checking the password.
 *
 * <p>Stateless itself; safe for concurrent use. Failures are {@link AccountException} subclasses (nothing
 * changed) or {@link UncheckedIOException} (the store could not be written; nothing changed).
 */
public final class UserAdministration {

    private final UserStore users;
    private final ApiTokens tokens;
    private final SessionManager sessions;
    private final SignInThrottle throttle;
    private final AuditTrail audit;

    UserAdministration(UserStore users, ApiTokens tokens, SessionManager sessions, SignInThrottle throttle,
                       AuditTrail audit) {
        this.users = users;
        this.tokens = tokens;
        this.sessions = sessions;
        this.throttle = throttle;
        this.audit = audit;
    }

    public List<UserAccount> listUsers(Principal actor) {
        requireManager(actor, "list users");
        return users.list();
    }

    public UserAccount createUser(Principal actor, String from, String name, String password, List<String> roles) {
        return perform(actor, from, AuditAction.USER_CREATE, "user/" + AuditTrail.printable(name), () -> {
            requireManager(actor, "create users");
            return users.create(name, password, roles);
        }, "created", "roles", String.join(",", roles));
    }

    /** An administrator sets another user's password; all that user's sessions end and API tokens are revoked. */
    public UserAccount setPassword(Principal actor, String from, String name, String password) {
        return perform(actor, from, AuditAction.USER_PASSWORD_CHANGE, "user/" + name, () -> {
            requireManager(actor, "set other users' passwords");
            UserAccount account = users.changePassword(name, password);
            sessions.endAllOf(name);
            tokens.revokeAllOf(name);
            return account;
        }, "password set");
    }

    /**
     * A user changes their own password, proving the current one (throttled like a sign-in); every other
     * session and API token of theirs ends, the credential of this request stays.
     *
     * @throws ThrottledException when too many wrong current passwords came from this address
     */
    public UserAccount changeOwnPassword(Principal actor, String from, String currentPassword, String newPassword) {
        return perform(actor, from, AuditAction.USER_PASSWORD_CHANGE, "user/" + actor.user(), () -> {
            requireCurrentPassword(actor.user(), from, currentPassword);
            UserAccount account = users.changePassword(actor.user(), newPassword);
            boolean viaSession = actor.via() == Principal.Via.SESSION;
            sessions.endAllOfExcept(actor.user(), viaSession ? actor.credentialId() : "");
            tokens.revokeAllOfExcept(actor.user(), viaSession ? "" : actor.credentialId());
            return account;
        }, "password changed");
    }

    /** Checks the current password behind a throttle slot reserved before any hashing. */
    private void requireCurrentPassword(String user, String from, String currentPassword) {
        SignInThrottle.Admission admission = throttle.reserve(user, from, true);
        if (admission instanceof SignInThrottle.Admission.MustWait wait) {
            long seconds = Math.max(1, (wait.retryAfter().toMillis() + 999) / 1000);
            throw new ThrottledException("throttled: too many wrong current passwords for " + user
                    + " from this address; try again in " + seconds + " s", wait.retryAfter());
        }
        SignInThrottle.Slot slot = ((SignInThrottle.Admission.Admitted) admission).slot();
        boolean matches;
        try {
            matches = users.passwordMatches(user, currentPassword);
        } catch (RuntimeException e) {
            throttle.released(slot);
            throw e;
        }
        if (!matches) {
            throttle.failed(slot);
            throw new NotPermittedException("the current password is wrong");
        }
        throttle.succeeded(slot);
    }

    public UserAccount setRoles(Principal actor, String from, String name, List<String> roles) {
        return perform(actor, from, AuditAction.USER_ROLES_CHANGE, "user/" + name, () -> {
            requireManager(actor, "change roles");
            return users.setRoles(name, roles);
        }, "roles set", "roles", String.join(",", roles));
    }

    /** Disables or enables a user; disabling ends their sessions and suspends their API tokens. */
    public UserAccount setDisabled(Principal actor, String from, String name, boolean disabled) {
        return perform(actor, from, disabled ? AuditAction.USER_DISABLE : AuditAction.USER_ENABLE, "user/" + name, () -> {
            requireManager(actor, disabled ? "disable users" : "enable users");
            UserAccount account = users.setDisabled(name, disabled);
            if (disabled) {
                sessions.endAllOf(name);
            }
            return account;
        }, disabled ? "disabled" : "enabled");
    }

    /** Deletes a user, ends their sessions and revokes their API tokens. */
    public void deleteUser(Principal actor, String from, String name) {
        perform(actor, from, AuditAction.USER_DELETE, "user/" + name, () -> {
            requireManager(actor, "delete users");
            users.delete(name);
            sessions.endAllOf(name);
            return tokens.revokeAllOf(name);
        }, "deleted");
    }

    /** Tokens of {@code owner}: their own, or anyone's for a manager. */
    public List<ApiToken> listTokens(Principal actor, String owner) {
        requireSelfOrManager(actor, owner, "list other users' API tokens");
        return tokens.listOf(owner);
    }

    /**
     * Creates an API token acting as {@code owner}; the result carries the secret, shown once. Refused for a
     * request authenticated by an API token.
     */
    public ApiTokens.Created createToken(Principal actor, String from, String owner, String name,
                                         Optional<Instant> expires) {
        return perform(actor, from, AuditAction.API_TOKEN_CREATE, "user/" + owner, () -> {
            if (actor.via() == Principal.Via.API_TOKEN) {
                throw new NotPermittedException("an API token cannot create API tokens: sign in (POST /api/v1/session)"
                        + " and create it from that session");
            }
            requireSelfOrManager(actor, owner, "create API tokens for other users");
            return tokens.create(owner, name, expires);
        }, created -> "token/" + created.token().id(), "created", "owner", owner, "name", AuditTrail.printable(name));
    }

    public ApiToken revokeToken(Principal actor, String from, String tokenId) {
        return perform(actor, from, AuditAction.API_TOKEN_REVOKE, "token/" + AuditTrail.printable(tokenId), () -> {
            ApiToken token = tokens.find(tokenId)
                    .orElseThrow(() -> new TokenNotFoundException("no API token " + tokenId));
            requireSelfOrManager(actor, token.owner(), "revoke other users' API tokens");
            return tokens.revoke(tokenId);
        }, "revoked");
    }

    private <T> T perform(Principal actor, String from, AuditAction action, String target, Supplier<T> change,
                          String outcome, String... details) {
        return perform(actor, from, action, target, change, result -> target, outcome, details);
    }

    /** Runs {@code change} and audits it: on success against {@code doneTarget(result)}, else against {@code target}. */
    private <T> T perform(Principal actor, String from, AuditAction action, String target, Supplier<T> change,
                          Function<T, String> doneTarget, String outcome, String... details) {
        T result;
        try {
            result = change.get();
        } catch (AccountException | UncheckedIOException refused) {
            String why = refused instanceof UncheckedIOException ? "failed: " : "refused: ";
            audit.record(actor.user(), action, target, why + refused.getMessage(), from, via(actor, details));
            throw refused;
        }
        audit.record(actor.user(), action, doneTarget.apply(result), outcome, from, via(actor, details));
        return result;
    }

    private static String[] via(Principal actor, String... details) {
        String[] all = new String[details.length + 2];
        all[0] = "via";
        all[1] = actor.via() == Principal.Via.API_TOKEN ? "token " + actor.credentialId() : "session";
        System.arraycopy(details, 0, all, 2, details.length);
        return all;
    }

    private static void requireManager(Principal actor, String what) {
        if (!actor.has(Permission.MANAGE_USERS)) {
            throw new NotPermittedException(actor.user() + " may not " + what + ": that needs \""
                    + Permission.MANAGE_USERS.label() + "\"");
        }
    }

    private static void requireSelfOrManager(Principal actor, String owner, String what) {
        if (!actor.user().equals(owner)) {
            requireManager(actor, what);
        }
    }
}
