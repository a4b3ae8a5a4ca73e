package io.qubiq.app;

import io.qubiq.testkit.http.ConsoleClient;

/**
 * The administrator gateway-app tests sign in as: its password goes into each test configuration through
 * {@link #AUTH_YAML}, with the cheapest password hashing the configuration allows, so a test gateway never
 * waits for a setup token and signing in costs milliseconds.
 */
public final class TestOperators {

    public static final String ADMIN = "admin";
    public static final String ADMIN_PASSWORD = "owner-passphrase-for-tests";

    /** A top-level {@code auth:} section for a test configuration. */
    public static final String AUTH_YAML = """
            auth:
              admin_password: %s
              password_hash_memory_kib: 4096
              password_hash_iterations: 1
            """.formatted(ADMIN_PASSWORD);

    private TestOperators() {
    }

    /** The administrator, signed in to {@code gateway}'s console. */
    public static ConsoleClient admin(Gateway gateway) {
        return ConsoleClient.signedIn("http://127.0.0.1:" + gateway.console().port(), ADMIN, ADMIN_PASSWORD);
    }
}
