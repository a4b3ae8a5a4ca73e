package io.qubiq.demoplant;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Optional;

/**
 * The one user name and password the plant's MQTT broker admits (issue 23 item 13: an anonymous
 * broker let anyone on the host publish to the setpoint's command topic). Generated per plant, so per
 * run of {@code qubiq demo}, from {@link SecureRandom} (24 bytes, URL-safe Base64) and kept in memory
 * only: the plant's own MQTT devices and the gateway's {@code demo-plant-mqtt} connection sign in with
 * it, and nothing writes it anywhere. Immutable; {@link #toString()} hides the password.
 *
 * @param username the user name, {@value #USERNAME}
 * @param password the generated password
 */
public record BrokerCredentials(String username, String password) {

    /** The user name of the plant's broker. */
    public static final String USERNAME = "qubiq-demo";

    /** New credentials with a fresh random password. */
    static BrokerCredentials generate() {
        byte[] secret = new byte[24];
        new SecureRandom().nextBytes(secret);
        return new BrokerCredentials(USERNAME, Base64.getUrlEncoder().withoutPadding().encodeToString(secret));
    }

    /** Whether a CONNECT's user name and password are these, compared in constant time. */
    boolean admit(Optional<String> user, Optional<ByteBuffer> secret) {
        if (user.isEmpty() || secret.isEmpty()) {
            return false;
        }
        ByteBuffer given = secret.get().asReadOnlyBuffer();
        byte[] bytes = new byte[given.remaining()];
        given.get(bytes);
        boolean passwordMatches = MessageDigest.isEqual(bytes, password.getBytes(StandardCharsets.UTF_8));
        return passwordMatches & user.get().equals(username);
    }

    @Override
    public String toString() {
        return "BrokerCredentials[username=" + username + ", password=***]";
    }
}
