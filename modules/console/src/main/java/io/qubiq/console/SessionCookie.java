package io.qubiq.console;

import io.javalin.http.Context;

/**
 * The session cookie as the browser gets it: {@code HttpOnly} (scripts never read it),
 * {@code SameSite=Strict} (never sent on a request another site starts), {@code Path=/}, no
 * {@code Max-Age} (it ends with the browser; the server ends it earlier by its timeouts), and
 * {@code Secure} whenever the console is served over HTTPS.
 */
final class SessionCookie {

    private final boolean secure;

    SessionCookie(boolean secure) {
        this.secure = secure;
    }

    void set(Context ctx, String sessionId) {
        ctx.header("Set-Cookie", RequestGuard.SESSION_COOKIE + "=" + sessionId + attributes());
    }

    void clear(Context ctx) {
        ctx.header("Set-Cookie", RequestGuard.SESSION_COOKIE + "=; Max-Age=0" + attributes());
    }

    private String attributes() {
        return "; Path=/; HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "");
    }
}
