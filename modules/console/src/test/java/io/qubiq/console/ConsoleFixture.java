package io.qubiq.console;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.qubiq.auth.Auth;
import io.qubiq.auth.AuthConfig;
import io.qubiq.core.lifecycle.ComponentState;
import io.qubiq.core.lifecycle.ComponentStatus;
import io.qubiq.core.lifecycle.DegradedPart;
import io.qubiq.core.lifecycle.Readiness;
import io.qubiq.core.time.ManualTicker;
import io.qubiq.testkit.RecordingEvents;
import io.qubiq.testkit.http.ConsoleClient;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A console server on a free port over a {@link FakeGateway}, with a real user store in a temp directory
 * (cheap Argon2id parameters) holding one user per built-in role plus {@code nobody} (no role). Session
 * timeouts run on {@link #ticker}, which stands still unless a test advances it. Start one per test class.
 */
final class ConsoleFixture implements AutoCloseable {

    /** The users every fixture has, by name; each one's role is its name (nobody has none). */
    static final List<String> USERS = List.of("admin", "engineer", "operator", "viewer", "nobody");

    static final class SettableStatus implements StatusView {
        volatile Readiness readiness = Readiness.READY;
        volatile List<DegradedPart> parts = List.of();
        volatile List<DiskStatus> disks = List.of();

        @Override
        public List<DiskStatus> disks() {
            return disks;
        }

        @Override
        public GatewayInfo info() {
            return new GatewayInfo("Test gateway", "1.2.3", Instant.parse("2026-01-01T00:00:00Z"));
        }

        @Override
        public Readiness readiness() {
            return readiness;
        }

        @Override
        public List<ComponentStatus> components() {
            return List.of(
                    new ComponentStatus("tag-bus", ComponentState.RUNNING, Instant.parse("2026-01-01T00:00:01Z"),
                            Optional.empty()),
                    new ComponentStatus("historian", ComponentState.FAILED, Instant.parse("2026-01-01T00:00:02Z"),
                            Optional.of("disk full")));
        }

        @Override
        public List<DegradedPart> degradedParts() {
            return parts;
        }
    }

    final SettableStatus status = new SettableStatus();
    final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    final RecordingEvents events = new RecordingEvents();
    final List<String> announcements = new CopyOnWriteArrayList<>();
    final FakeGateway gateway = new FakeGateway();
    /** The monotonic clock session timeouts are measured on: it moves only when a test advances it. */
    final ManualTicker ticker = new ManualTicker();
    final Auth auth;
    final ConsoleServer server;
    private final String scheme;

    ConsoleFixture(Path directory, HttpConfig http, AuthConfig authConfig, boolean withUsers) throws IOException {
        this(directory, http, authConfig, withUsers, List.of());
    }

    /** @param extraRoutes route groups served beside the fake gateway's (for tests of the route machinery) */
    ConsoleFixture(Path directory, HttpConfig http, AuthConfig authConfig, boolean withUsers,
                   List<ApiRoutes> extraRoutes) throws IOException {
        auth = Auth.open(authConfig, directory.resolve("auth"), Clock.systemUTC(), ticker, events,
                announcements::add);
        auth.bootstrap().start(withUsers ? Optional.of(password("admin")) : Optional.empty());
        if (withUsers) {
            for (String user : USERS.subList(1, USERS.size())) {
                auth.users().create(user, password(user), user.equals("nobody") ? List.of() : List.of(user));
            }
        }
        scheme = http.tls().isPresent() ? "https" : "http";
        List<ApiRoutes> routes = new java.util.ArrayList<>(gateway.routes());
        routes.addAll(extraRoutes);
        server = new ConsoleServer(http, status, registry, Clock.systemUTC(), auth, routes, gateway.sources());
        server.start();
    }

    static ConsoleFixture start(Path directory) throws IOException {
        return new ConsoleFixture(directory, HttpConfig.plain("127.0.0.1", 0), cheap(AuthConfig.defaults()), true);
    }

    /** {@code config} with the cheapest Argon2id parameters the configuration allows. */
    static AuthConfig cheap(AuthConfig c) {
        return new AuthConfig(c.sessionIdleTimeoutMs(), c.sessionAbsoluteTimeoutMs(), c.passwordMinLength(), 4096, 1, 1,
                c.signInFreeFailures(), c.signInBaseDelayMs(), c.signInMaxDelayMs(), c.signInMaxTrackedKeys(),
                c.adminUsername(), Optional.empty(), c.setupTokenTtlMs(), Map.of());
    }

    /** Sign-in throttled after {@code freeFailures}, each further wait {@code baseDelayMs} and doubling. */
    static AuthConfig throttled(int freeFailures, long baseDelayMs) {
        AuthConfig c = AuthConfig.defaults();
        return cheap(new AuthConfig(c.sessionIdleTimeoutMs(), c.sessionAbsoluteTimeoutMs(), c.passwordMinLength(),
                c.passwordHashMemoryKib(), c.passwordHashIterations(), c.passwordHashParallelism(), freeFailures,
                baseDelayMs, Math.max(baseDelayMs, c.signInMaxDelayMs()), c.signInMaxTrackedKeys(), c.adminUsername(),
                Optional.empty(), c.setupTokenTtlMs(), Map.of()));
    }

    /** Long, uncommon and without the user name, as the password policy requires. */
    static String password(String user) {
        return "pw-" + Integer.toHexString(user.hashCode()) + "-long-enough";
    }

    String base() {
        return scheme + "://127.0.0.1:" + server.port();
    }

    ConsoleClient anonymous() {
        return ConsoleClient.anonymous(base());
    }

    ConsoleClient as(String user) {
        return ConsoleClient.signedIn(base(), user, password(user));
    }

    @Override
    public void close() {
        server.stop();
    }
}
