package io.qubiq.auth;

/**
 * The setup token was wrong, expired or already used, or users exist already. A fresh token is printed
 * when the gateway starts again without users.
 */
public final class SetupRefusedException extends AccountException {

    public SetupRefusedException(String message) {
        super(message);
    }
}
