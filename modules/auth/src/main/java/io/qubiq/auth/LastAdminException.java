package io.qubiq.auth;

/** The change would leave no enabled user holding Manage users, so nobody could administer the gateway any more. */
public final class LastAdminException extends AccountException {

    public LastAdminException(String message) {
        super(message);
    }
}
