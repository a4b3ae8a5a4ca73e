package io.qubiq.console;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.javalin.http.Context;
import io.qubiq.auth.Auth;
import io.qubiq.auth.Principal;
import io.qubiq.auth.SignInResult;
import io.qubiq.auth.UserAccount;
import java.util.List;
import java.util.Optional;

/**
 * Signing in and out, and the first start:
 * <ul>
 *   <li>{@code GET /api/v1/setup}: whether the first administrator still has to be created;</li>
 *   <li>{@code POST /api/v1/setup} {@code {"token", "user", "password"}}: creates them with the one-time
 *       token the gateway logged (201; 403 wrong or expired token, 409 when users exist, 400 bad password);</li>
 *   <li>{@code POST /api/v1/session} {@code {"user", "password"}}: signs in (200 with the session and the
 *       cookie; 401 wrong user name or password, whatever the real reason; 429 with {@code Retry-After}
 *       while throttled, or when as many password checks as the gateway runs at once are running);</li>
 *   <li>{@code GET /api/v1/session}: who is signed in, their permissions and the CSRF token;</li>
 *   <li>{@code DELETE /api/v1/session}: signs out (204, cookie cleared);</li>
 *   <li>{@code POST /api/v1/session/password} {@code {"current", "password"}}: changes one's own password
 *       (204; 403 wrong current password; 429 with {@code Retry-After} when wrong current passwords for this
 *       user from this address are throttled, counted with the sign-in throttle; 400 when the new one breaks
 *       the password rules). Every other session and API token of the user ends.</li>
 * </ul>
 */
final class SessionRoutes implements ApiRoutes {

    /** The session as the page sees it; {@code csrfToken} is empty for API-token requests. */
    record SessionView(String user, List<String> roles, List<String> permissions, Optional<String> csrfToken,
                       String via) {
    }

    /**
     * @param required     no user exists yet: the first administrator must be created
     * @param tokenWaiting a setup token is waiting (false once it expired: restart the gateway for a new one)
     * @param unavailable  why nobody can sign in (a damaged user or token store, and how to recover); absent normally
     */
    record SetupState(boolean required, boolean tokenWaiting,
                      @JsonInclude(JsonInclude.Include.NON_ABSENT) Optional<String> unavailable) {
    }

    record Created(String user) {
    }

    record Refusal(int status, String error, long retryAfterSeconds) {
    }

    private final Auth auth;
    private final SessionCookie cookie;

    SessionRoutes(Auth auth, SessionCookie cookie) {
        this.auth = auth;
        this.cookie = cookie;
    }

    @Override
    public void register(Api api) {
        api.get("/api/v1/setup", Access.PUBLIC, "Whether the first administrator must still be created",
                Reply.json(SetupState.class), ctx -> new SetupState(auth.users().isEmpty() && auth.damage().isEmpty(),
                        auth.bootstrap().setupPending(), auth.authenticator().unavailable()));
        api.post("/api/v1/setup", Access.PUBLIC, "Create the first administrator with the one-time setup token",
                Reply.json(Created.class).created().failing(RequestFailure.InvalidRequest.class)
                        .orAnswers(403, "wrong or expired setup token")
                        .orAnswers(409, "no setup is pending: users exist already"), this::setup);
        api.post("/api/v1/session", Access.PUBLIC, "Sign in with user name and password",
                Reply.json(SessionView.class).failing(RequestFailure.InvalidRequest.class)
                        .orAnswers(401, "wrong user name or password", Refusal.class)
                        .orAnswers(429, "throttled, or too many sign-ins being checked: see Retry-After", Refusal.class)
                        .orAnswers(503, "nobody can sign in: the user or token store is damaged", Refusal.class),
                this::signIn);
        api.get("/api/v1/session", Access.SIGNED_IN, "The signed-in user, permissions and CSRF token",
                Reply.json(SessionView.class), ctx -> view(RequestGuard.principal(ctx), ctx));
        api.delete("/api/v1/session", Access.SIGNED_IN, "Sign out", Reply.noContent(), this::signOut);
        api.post("/api/v1/session/password", Access.SIGNED_IN, "Change one's own password",
                Reply.noContent().failing(RequestFailure.InvalidRequest.class)
                        .orAnswers(403, "the current password is wrong")
                        .orAnswers(429, "too many wrong current passwords from this address: see Retry-After"),
                this::changePassword);
    }

    private Created setup(Context ctx) {
        JsonBody body = JsonBody.of(ctx, "{\"token\": \"...\", \"user\": \"admin\", \"password\": \"...\"}");
        UserAccount admin = auth.bootstrap().claimSetup(body.text("token"),
                body.optionalText("user").orElse("admin"), body.text("password"), RequestGuard.from(ctx));
        return new Created(admin.name());
    }

    /** The session view when signed in; null after writing a refusal (401, 429, 503) itself. */
    private SessionView signIn(Context ctx) {
        JsonBody body = JsonBody.of(ctx, "{\"user\": \"alice\", \"password\": \"...\"}");
        SignInResult result = auth.signIn().signIn(body.text("user"), body.text("password"), RequestGuard.from(ctx));
        if (result instanceof SignInResult.SignedIn signedIn) {
            cookie.set(ctx, signedIn.session().id());
            UserAccount user = signedIn.user();
            return new SessionView(user.name(), user.roles(),
                    PermissionNames.of(auth.roles().permissionsOf(user.roles())),
                    Optional.of(signedIn.session().csrfToken()), "session");
        }
        if (result instanceof SignInResult.Unavailable unavailable) {
            ctx.status(503).json(new Refusal(503, unavailable.reason(), 0));
            return null;
        }
        if (result instanceof SignInResult.Busy busy) {
            long seconds = Math.max(1, (busy.retryAfter().toMillis() + 999) / 1000);
            ctx.header("Retry-After", Long.toString(seconds));
            ctx.status(429).json(new Refusal(429, "the gateway is busy checking other sign-ins: try again in "
                    + seconds + " s", seconds));
            return null;
        }
        SignInResult.Refused refused = (SignInResult.Refused) result;
        long seconds = (refused.retryAfter().toMillis() + 999) / 1000;
        if (refused.throttled()) {
            ctx.header("Retry-After", Long.toString(seconds));
            ctx.status(429).json(new Refusal(429, "too many failed sign-ins for this user name from this address:"
                    + " try again in " + seconds + " s", seconds));
        } else {
            if (seconds > 0) {
                ctx.header("Retry-After", Long.toString(seconds));
            }
            ctx.status(401).json(new Refusal(401, "wrong user name or password", seconds));
        }
        return null;
    }

    private Void signOut(Context ctx) {
        auth.signIn().signOut(ctx.cookie(RequestGuard.SESSION_COOKIE), RequestGuard.from(ctx));
        cookie.clear(ctx);
        return null;
    }

    private Void changePassword(Context ctx) {
        JsonBody body = JsonBody.of(ctx, "{\"current\": \"...\", \"password\": \"...\"}");
        auth.administration().changeOwnPassword(RequestGuard.principal(ctx), RequestGuard.from(ctx),
                body.text("current"), body.text("password"));
        return null;
    }

    private SessionView view(Principal principal, Context ctx) {
        List<String> roles = auth.users().find(principal.user()).map(UserAccount::roles).orElse(List.of());
        Optional<String> csrf = principal.via() == Principal.Via.SESSION
                ? auth.sessions().csrfToken(ctx.cookie(RequestGuard.SESSION_COOKIE)) : Optional.empty();
        return new SessionView(principal.user(), roles, PermissionNames.of(principal.permissions()), csrf,
                principal.via() == Principal.Via.SESSION ? "session" : "api_token");
    }
}
