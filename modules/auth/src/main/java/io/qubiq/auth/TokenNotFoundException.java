package io.qubiq.auth;

/** No API token has that id (it was revoked, or never existed). */
public final class TokenNotFoundException extends AccountException {

    public TokenNotFoundException(String message) {
        super(message);
    }
}
