package io.qubiq.console;

import io.javalin.http.Context;
import io.qubiq.auth.AccessDecision;
import io.qubiq.auth.AccessRefusals;
import io.qubiq.auth.Authenticator;
import io.qubiq.auth.Permission;
import io.qubiq.auth.Principal;
import java.util.Locale;
import java.util.Optional;

/**
 * The server-side check in front of every API handler, in this order:
 * <ol>
 *   <li>who is asking: an {@code Authorization: Bearer} API token if the header is present (a wrong
 *       token is not signed in, whatever cookie comes with it), otherwise the {@value #SESSION_COOKIE}
 *       cookie;</li>
 *   <li>a public endpoint that changes state (sign-in, setup) must be sent as {@code application/json},
 *       which a cross-site HTML form cannot do;</li>
 *   <li>anything but a public endpoint needs a principal: 401 otherwise, or 503 naming the file and the
 *       recovery while the user or token store is damaged ({@link Authenticator#unavailable});</li>
 *   <li>a state-changing request authenticated by the session cookie must carry the session's CSRF
 *       token in {@value #CSRF_HEADER}: 403 otherwise (a Bearer request needs none: browsers never
 *       attach it on their own);</li>
 *   <li>the endpoint's permission: 403 naming the missing permission otherwise, journaled through
 *       {@link AccessRefusals} (aggregated per user, address and minute).</li>
 * </ol>
 * The resolved principal is left on the request for the handler ({@link #principal}).
 *
 * <p>Stateless; safe for Jetty's concurrent request threads.
 */
public final class RequestGuard {

    public static final String SESSION_COOKIE = "qubiq_session";
    public static final String CSRF_HEADER = "X-CSRF-Token";
    private static final String PRINCIPAL = "qubiq.principal";
    /** Sent by the console's pages with requests they make on a timer, not for the user. */
    public static final String BACKGROUND_HEADER = "X-Qubiq-Background";
    private static final String BACKGROUND = "1";

    private final Authenticator authenticator;
    private final AccessRefusals refusals;

    RequestGuard(Authenticator authenticator, AccessRefusals refusals) {
        this.authenticator = authenticator;
        this.refusals = refusals;
    }

    void check(Context ctx, Endpoint endpoint) {
        Optional<Principal> principal = resolve(ctx);
        principal.ifPresent(p -> ctx.attribute(PRINCIPAL, p));
        if (endpoint.access().isPublic()) {
            if (endpoint.changesState() && !isJson(ctx)) {
                throw new ApiError(415, "send this request as JSON (Content-Type: application/json)");
            }
            return;
        }
        if (principal.isEmpty() && authenticator.unavailable().isPresent()) {
            throw new ApiError(503, authenticator.unavailable().get());
        }
        if (principal.isEmpty()) {
            ctx.header("WWW-Authenticate", "Bearer realm=\"qubiq\"");
            throw new ApiError(401, "sign in first (POST /api/v1/session) or send an API token"
                    + " (Authorization: Bearer ...)");
        }
        Principal who = principal.get();
        if (endpoint.changesState() && who.via() == Principal.Via.SESSION
                && !authenticator.csrfMatches(ctx.cookie(SESSION_COOKIE), ctx.header(CSRF_HEADER))) {
            throw new ApiError(403, "CSRF token missing or wrong: send the " + CSRF_HEADER
                    + " header with the csrfToken of GET /api/v1/session");
        }
        if (endpoint.access().permission().isPresent()) {
            Permission needed = endpoint.access().permission().get();
            AccessDecision decision = Authenticator.require(who, needed);
            if (!decision.allowed()) {
                refusals.refused(who, needed, ctx.method() + " " + endpoint.path(), from(ctx));
                throw new ApiError(403, decision.reason());
            }
        }
    }

    private Optional<Principal> resolve(Context ctx) {
        String authorization = ctx.header("Authorization");
        if (authorization != null) {
            return authenticator.fromBearer(authorization);
        }
        // a page refreshing itself on a timer is not the user at work: it must not keep an idle session alive
        return BACKGROUND.equals(ctx.header(BACKGROUND_HEADER))
                ? authenticator.fromSessionWithoutUse(ctx.cookie(SESSION_COOKIE))
                : authenticator.fromSession(ctx.cookie(SESSION_COOKIE));
    }

    private static boolean isJson(Context ctx) {
        String type = ctx.contentType();
        return type != null && type.toLowerCase(Locale.ROOT).startsWith("application/json");
    }

    /** The principal the guard resolved; only for endpoints that are not public. */
    public static Principal principal(Context ctx) {
        Principal principal = ctx.attribute(PRINCIPAL);
        if (principal == null) {
            throw new IllegalStateException("no principal on " + ctx.method() + " " + ctx.path()
                    + ": the endpoint is public or the guard did not run");
        }
        return principal;
    }

    /** The remote address the request came from, for the audit journal. */
    public static String from(Context ctx) {
        return ctx.ip();
    }
}
