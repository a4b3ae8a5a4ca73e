package io.qubiq.auth;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What the console calls on every request: resolve the principal from the session cookie or the
 * {@code Authorization: Bearer} header, then {@link #require} the endpoint's permission.
 *
 * <p>Every call is cheap (a SHA-256, two map lookups and an {@link java.util.EnumSet} union); no
 * password hashing happens here. Permissions come from the user's roles at the time of the request,
 * so a role change applies to the next request; a disabled or deleted user's sessions are ended the
 * first time they are presented (and {@link UserAdministration} ends them at once anyway).
 *
 * <p>CSRF: a session-authenticated state-changing request must also pass {@link #csrfMatches}. A Bearer
 * request needs no CSRF token: browsers never attach it on their own.
 *
 * <p>Stateless itself; safe for concurrent use.
 */
public final class Authenticator {

    private final UserStore users;
    private final Roles roles;
    private final SessionManager sessions;
    private final ApiTokens tokens;
    private final List<StoreDamage> damage;

    public Authenticator(UserStore users, Roles roles, SessionManager sessions, ApiTokens tokens) {
        this(users, roles, sessions, tokens, List.of());
    }

    Authenticator(UserStore users, Roles roles, SessionManager sessions, ApiTokens tokens, List<StoreDamage> damage) {
        this.damage = List.copyOf(damage);
        this.users = users;
        this.roles = roles;
        this.sessions = sessions;
        this.tokens = tokens;
    }

    /**
     * Why nobody can be authenticated now (a damaged user or token store: every request without a principal
     * is answered 503 with this), or empty.
     */
    public Optional<String> unavailable() {
        return damage.isEmpty() ? Optional.empty() : Optional.of(damage.get(0).message());
    }

    /** The principal of a live session of an enabled user, the request counting as use of it; empty otherwise. */
    public Optional<Principal> fromSession(String sessionId) {
        return fromSession(sessionId, true);
    }

    /**
     * As {@link #fromSession}, but not counted as use: the idle timeout keeps running. For the live event
     * stream, which checks its session each second, and a page's refresh on a timer: neither may keep an
     * unattended console signed in.
     */
    public Optional<Principal> fromSessionWithoutUse(String sessionId) {
        return fromSession(sessionId, false);
    }

    private Optional<Principal> fromSession(String sessionId, boolean use) {
        if (sessionId == null || sessionId.isEmpty() || sessionId.length() > 200) {
            return Optional.empty();
        }
        Optional<SessionManager.Session> session = use ? sessions.resolve(sessionId) : sessions.peek(sessionId);
        if (session.isEmpty()) {
            return Optional.empty();
        }
        Optional<UserAccount> user = users.find(session.get().user()).filter(u -> !u.disabled());
        if (user.isEmpty()) {
            sessions.end(sessionId);
            return Optional.empty();
        }
        return Optional.of(new Principal(user.get().name(), roles.permissionsOf(user.get().roles()),
                Principal.Via.SESSION, session.get().key()));
    }

    /** The principal of an {@code Authorization} header value {@code Bearer qbq_…}; empty otherwise. */
    public Optional<Principal> fromBearer(String authorizationHeader) {
        if (authorizationHeader == null || authorizationHeader.length() < 7
                || !authorizationHeader.substring(0, 7).toLowerCase(Locale.ROOT).equals("bearer ")) {
            return Optional.empty();
        }
        return tokens.authenticate(authorizationHeader.substring(7).strip()).flatMap(token -> users.find(token.owner())
                .map(user -> new Principal(user.name(), roles.permissionsOf(user.roles()), Principal.Via.API_TOKEN,
                        token.id())));
    }

    /** Whether {@code principal} may use an endpoint that needs {@code permission}. */
    public AccessDecision require(Optional<Principal> principal, Permission permission) {
        if (principal.isEmpty()) {
            return AccessDecision.deny("not signed in");
        }
        return require(principal.get(), permission);
    }

    /** As {@link #require(Optional, Permission)} for a resolved principal. */
    public static AccessDecision require(Principal principal, Permission permission) {
        if (principal.has(permission)) {
            return AccessDecision.allow();
        }
        return AccessDecision.deny(principal.user() + " lacks the permission \"" + permission.label() + "\"");
    }

    /** The synchronizer-token check for a state-changing request made with session {@code sessionId}. */
    public boolean csrfMatches(String sessionId, String presentedToken) {
        return sessionId != null && sessions.csrfMatches(sessionId, presentedToken);
    }
}
