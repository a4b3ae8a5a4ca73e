package io.qubiq.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;

/**
 * Random secrets and how they are compared and kept. Secrets with at least 128 random bits (session
 * ids, CSRF, setup and API tokens) are stored as their SHA-256, which is enough for high-entropy values;
 * passwords go through {@link PasswordHasher} instead. Every comparison of a secret with a stored
 * value uses {@link #constantTimeEquals}, whose duration does not depend on where the inputs differ.
 * Thread-safe ({@link SecureRandom} is).
 */
public final class Secrets {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Base64.Encoder URL = Base64.getUrlEncoder().withoutPadding();

    private Secrets() {
    }

    /** {@code bytes} random bytes as URL-safe base64 without padding (6 bits per character). */
    public static String random(int bytes) {
        byte[] value = new byte[bytes];
        RANDOM.nextBytes(value);
        return URL.encodeToString(value);
    }

    static byte[] randomBytes(int bytes) {
        byte[] value = new byte[bytes];
        RANDOM.nextBytes(value);
        return value;
    }

    /** SHA-256 of the UTF-8 bytes, as lower-case hex: how high-entropy secrets are kept. */
    public static String sha256(String secret) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(secret.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM provides SHA-256", e);
        }
    }

    /** Equality that examines every byte whatever the contents ({@link MessageDigest#isEqual}). */
    public static boolean constantTimeEquals(byte[] a, byte[] b) {
        return MessageDigest.isEqual(a, b);
    }

    /** As {@link #constantTimeEquals(byte[], byte[])} on the UTF-8 bytes. */
    public static boolean constantTimeEquals(String a, String b) {
        return MessageDigest.isEqual(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
    }
}
