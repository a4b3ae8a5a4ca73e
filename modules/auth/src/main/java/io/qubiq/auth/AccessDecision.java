package io.qubiq.auth;

/**
 * The answer to "may this principal do that?": the console turns a denial into 403 (or 401 when
 * there is no principal) and may show the reason to the user, who is entitled to know which
 * permission they lack.
 */
public record AccessDecision(boolean allowed, String reason) {

    private static final AccessDecision ALLOWED = new AccessDecision(true, "allowed");

    public static AccessDecision allow() {
        return ALLOWED;
    }

    public static AccessDecision deny(String reason) {
        return new AccessDecision(false, reason);
    }
}
