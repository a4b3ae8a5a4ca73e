package io.qubiq.auth;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The module wired over a temp directory with a hand-moved clock, recorded audit events, and cheap
 * Argon2id parameters (256 KiB, 1 pass) so tests do not spend seconds hashing.
 */
final class AuthFixture {

    static final Argon2Parameters CHEAP = new Argon2Parameters(256, 1, 1);
    static final String FROM = "10.0.0.7";

    final Path directory;
    final MutableClock clock = new MutableClock();
    final RecordingEvents events = new RecordingEvents();
    final List<String> announcements = new ArrayList<>();
    /** Session key to session id, for every session {@link #signIn} opened. */
    final Map<String, String> sessionIds = new java.util.HashMap<>();
    final PasswordHasher hasher;
    final Auth auth;

    AuthFixture(Path directory) throws IOException {
        this(directory, AuthConfig.defaults());
    }

    AuthFixture(Path directory, AuthConfig config) throws IOException {
        this(directory, config, hasher(config.passwordMinLength()), new CheckGate(64, Duration.ofSeconds(10)));
    }

    /** With a given hasher and check gate (the default gate never turns anyone away in a test). */
    AuthFixture(Path directory, AuthConfig config, PasswordHasher hasher, CheckGate gate) throws IOException {
        this.directory = directory;
        this.hasher = hasher;
        this.auth = Auth.open(config, directory, clock, clock.ticker(), events, hasher, gate,
                announcements::add);
    }

    static PasswordHasher hasher(int minLength) {
        return new PasswordHasher(CHEAP, minLength, 2);
    }

    static AuthConfig withRoles(Map<String, List<Permission>> roles) {
        AuthConfig d = AuthConfig.defaults();
        return new AuthConfig(d.sessionIdleTimeoutMs(), d.sessionAbsoluteTimeoutMs(), d.passwordMinLength(),
                d.passwordHashMemoryKib(), d.passwordHashIterations(), d.passwordHashParallelism(),
                d.signInFreeFailures(), d.signInBaseDelayMs(), d.signInMaxDelayMs(), d.signInMaxTrackedKeys(),
                d.adminUsername(), d.adminPassword(), d.setupTokenTtlMs(), roles);
    }

    /** Creates a user directly in the store (no audit), for arranging a test. */
    UserAccount user(String name, String... roles) {
        return auth.users().create(name, password(name), List.of(roles));
    }

    /** The password {@link #user} gives {@code name}: long, uncommon, without the name (the policy refuses that). */
    static String password(String name) {
        return "pw-" + Integer.toHexString(name.hashCode()) + "-long-enough";
    }

    /** Signs {@code name} in and returns the principal of the new session. */
    Principal signIn(String name) {
        SignInResult result = auth.signIn().signIn(name, password(name), FROM);
        String id = ((SignInResult.SignedIn) result).session().id();
        Principal principal = auth.authenticator().fromSession(id).orElseThrow();
        sessionIds.put(principal.credentialId(), id);
        return principal;
    }
}
