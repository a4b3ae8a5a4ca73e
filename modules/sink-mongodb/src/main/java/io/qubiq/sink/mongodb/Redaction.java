package io.qubiq.sink.mongodb;

/**
 * Keeps the credentials of a connection string out of messages: the user information between
 * {@code ://} and the last {@code @} before the host list is replaced by {@code ***} wherever it
 * appears, whole or as the password alone. Stateless.
 */
final class Redaction {

    private Redaction() {
    }

    static String withoutCredentials(String message, String connectionString) {
        int scheme = connectionString.indexOf("://");
        if (scheme < 0) {
            return message;
        }
        int hostsEnd = connectionString.indexOf('/', scheme + 3);
        String authority = connectionString.substring(scheme + 3, hostsEnd < 0 ? connectionString.length() : hostsEnd);
        int at = authority.lastIndexOf('@');
        if (at <= 0) {
            return message;
        }
        String userInfo = authority.substring(0, at);
        String redacted = message.replace(userInfo, "***");
        int colon = userInfo.indexOf(':');
        if (colon >= 0 && colon < userInfo.length() - 1) {
            redacted = redacted.replace(userInfo.substring(colon + 1), "***");
        }
        return redacted;
    }
}
