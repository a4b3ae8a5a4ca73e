package io.qubiq.config.revision;

/**
 * A change was made on a revision that is no longer the file's: someone else (or a hand edit) came
 * first. Nothing was written; {@link #currentToken()} and {@link #currentText()} let the caller show
 * what changed meanwhile.
 */
public final class StaleRevisionException extends Exception {

    private final String currentToken;
    private final transient String currentText;

    StaleRevisionException(String base, String currentToken, String currentText) {
        super("the change was made on revision " + abbreviated(base) + ", but the configuration is now at revision "
                + abbreviated(currentToken) + "; reload it, look at what changed, and make the change again");
        this.currentToken = currentToken;
        this.currentText = currentText;
    }

    private static String abbreviated(String token) {
        return token.length() > 12 ? token.substring(0, 12) : token;
    }

    public String currentToken() {
        return currentToken;
    }

    public String currentText() {
        return currentText;
    }
}
