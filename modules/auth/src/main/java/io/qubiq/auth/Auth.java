package io.qubiq.auth;

import io.qubiq.core.event.EventPublisher;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The parts of this module, wired together over one directory: what the console receives. Build it
 * with {@link #open}, then call {@code bootstrap().start(config.adminPassword())} once.
 *
 * @param directory the directory holding {@code users.properties} and {@code api-tokens.properties}
 */
public record Auth(Path directory, Roles roles, UserStore users, ApiTokens tokens, SessionManager sessions,
                   SignInThrottle throttle, Authenticator authenticator, SignIn signIn,
                   UserAdministration administration, AdminBootstrap bootstrap) {

    private static final Logger LOG = LoggerFactory.getLogger(AdminBootstrap.class);

    /**
     * Opens the stores in {@code directory} (normally {@code <data dir>/auth}) and wires the rest.
     * Audit events go to {@code events}; the setup token, if one is needed, to the log at WARN.
     *
     * @throws CorruptStoreException if a store file is damaged: the gateway must not start
     */
    public static Auth open(AuthConfig config, Path directory, Clock clock, EventPublisher events) throws IOException {
        return open(config, directory, clock, events, new PasswordHasher(config.hashParameters(),
                config.passwordMinLength(), Runtime.getRuntime().availableProcessors()), LOG::warn);
    }

    /** As {@link #open(AuthConfig, Path, Clock, EventPublisher)}, announcing the setup token to {@code announcer}. */
    public static Auth open(AuthConfig config, Path directory, Clock clock, EventPublisher events,
                            Consumer<String> announcer) throws IOException {
        return open(config, directory, clock, events, new PasswordHasher(config.hashParameters(),
                config.passwordMinLength(), Runtime.getRuntime().availableProcessors()), announcer);
    }

    /** As {@link #open(AuthConfig, Path, Clock, EventPublisher)} with a given hasher and setup-token announcer. */
    static Auth open(AuthConfig config, Path directory, Clock clock, EventPublisher events, PasswordHasher hasher,
                     Consumer<String> announcer) throws IOException {
        Roles roles = Roles.withCustom(config.roles());
        UserStore users = UserStore.open(directory, hasher, roles, clock);
        ApiTokens tokens = ApiTokens.open(directory, users, clock);
        SessionManager sessions = new SessionManager(clock, Duration.ofMillis(config.sessionIdleTimeoutMs()),
                Duration.ofMillis(config.sessionAbsoluteTimeoutMs()));
        SignInThrottle throttle = new SignInThrottle(clock, config.signInFreeFailures(),
                Duration.ofMillis(config.signInBaseDelayMs()), Duration.ofMillis(config.signInMaxDelayMs()),
                config.signInMaxTrackedKeys());
        AuditTrail audit = new AuditTrail(events, clock);
        return new Auth(directory, roles, users, tokens, sessions, throttle,
                new Authenticator(users, roles, sessions, tokens), new SignIn(users, sessions, throttle, audit),
                new UserAdministration(users, tokens, sessions, audit),
                new AdminBootstrap(users, audit, clock, Duration.ofMillis(config.setupTokenTtlMs()),
                        config.adminUsername(), announcer));
    }
}
