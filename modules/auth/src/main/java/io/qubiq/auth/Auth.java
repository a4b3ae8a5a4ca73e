package io.qubiq.auth;

import io.qubiq.core.event.EventPublisher;
import io.qubiq.core.lifecycle.Periodic;
import io.qubiq.core.time.Ticker;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The parts of this module, wired together over one directory: what the console receives. Build it
 * with {@link #open}, then call {@code bootstrap().start(config.adminPassword())} once.
 *
 * <p>Fixed limits (not configuration): at most as many sign-in password checks at once as there are
 * cores, each caller waiting at most {@link #CHECK_PATIENCE} for a place; refused unauthenticated requests
 * journaled by {@link RefusalDigest} in windows of {@link #REFUSAL_WINDOW}, at most
 * {@value #REFUSALS_JOURNALED_AT_ONCE} on their own and {@value #REFUSAL_GROUPS} groups per window, more than
 * {@value #REFUSAL_SPIKE_PER_WINDOW} a window raising the refusal-spike alarm; refusals of signed-in callers
 * for lack of a permission ({@link AccessRefusals}) by a second digest with the same limits and no alarm.
 *
 * @param directory the directory holding {@code users.properties} and {@code api-tokens.properties}
 */
public record Auth(Path directory, Roles roles, UserStore users, ApiTokens tokens, SessionManager sessions,
                   SignInThrottle throttle, Authenticator authenticator, SignIn signIn,
                   UserAdministration administration, AdminBootstrap bootstrap, AccessRefusals accessRefusals) {

    private static final Logger LOG = LoggerFactory.getLogger(AdminBootstrap.class);

    static final Duration CHECK_PATIENCE = Duration.ofMillis(100);
    static final Duration REFUSAL_WINDOW = Duration.ofMinutes(1);
    static final int REFUSALS_JOURNALED_AT_ONCE = 20;
    static final int REFUSAL_GROUPS = 32;
    /** More refusals than this in one window raise the refusal-spike alarm. */
    static final int REFUSAL_SPIKE_PER_WINDOW = 100;
    /** How often the flusher journals the summaries of a window that has passed. */
    static final Duration REFUSAL_FLUSH_PERIOD = Duration.ofSeconds(5);

    /**
     * Opens the stores in {@code directory} (normally {@code <data dir>/auth}) and wires the rest.
     * Audit events go to {@code events}; the setup token, if one is needed, to the log at WARN.
     *
     * A damaged store file does not throw: see {@link #damage}.
     *
     * @throws IOException if the directory cannot be created or a file cannot be read at all
     */
    public static Auth open(AuthConfig config, Path directory, Clock clock, EventPublisher events) throws IOException {
        return open(config, directory, clock, events, LOG::warn);
    }

    /** As {@link #open(AuthConfig, Path, Clock, EventPublisher)}, announcing the setup token to {@code announcer}. */
    public static Auth open(AuthConfig config, Path directory, Clock clock, EventPublisher events,
                            Consumer<String> announcer) throws IOException {
        return open(config, directory, clock, Ticker.system(), events, announcer);
    }

    /** As {@link #open(AuthConfig, Path, Clock, EventPublisher, Consumer)}, session timeouts measured on {@code ticker}. */
    public static Auth open(AuthConfig config, Path directory, Clock clock, Ticker ticker, EventPublisher events,
                            Consumer<String> announcer) throws IOException {
        int cores = Runtime.getRuntime().availableProcessors();
        Auth auth = open(config, directory, clock, ticker, events, new PasswordHasher(config.hashParameters(),
                config.passwordMinLength(), cores), new CheckGate(cores, CHECK_PATIENCE), announcer);
        startRefusalFlusher(auth);
        return auth;
    }

    /**
     * As {@link #open(AuthConfig, Path, Clock, EventPublisher)} with a given hasher, check gate and setup-token
     * announcer, and no flusher thread: refusal summaries are written on the next refusal of a later window,
     * or by {@link SignIn#flushRefusals}. Session timeouts are measured on {@code ticker}.
     */
    static Auth open(AuthConfig config, Path directory, Clock clock, Ticker ticker, EventPublisher events,
                     PasswordHasher hasher, CheckGate gate, Consumer<String> announcer) throws IOException {
        Roles roles = Roles.withCustom(config.roles());
        UserStore users;
        try {
            users = UserStore.open(directory, hasher, roles, clock);
        } catch (CorruptStoreException damaged) {
            users = UserStore.damaged(directory, hasher, roles, clock, StoreDamage.setAside(damaged, clock.instant()));
        }
        ApiTokens tokens;
        try {
            tokens = ApiTokens.open(directory, users, clock);
        } catch (CorruptStoreException damaged) {
            tokens = ApiTokens.damaged(directory, users, clock, StoreDamage.setAside(damaged, clock.instant()));
        }
        List<StoreDamage> damage = Stream.concat(users.damage().stream(), tokens.damage().stream()).toList();
        SessionManager sessions = new SessionManager(clock, ticker, Duration.ofMillis(config.sessionIdleTimeoutMs()),
                Duration.ofMillis(config.sessionAbsoluteTimeoutMs()));
        SignInThrottle throttle = new SignInThrottle(clock, config.signInFreeFailures(),
                Duration.ofMillis(config.signInBaseDelayMs()), Duration.ofMillis(config.signInMaxDelayMs()),
                config.signInMaxTrackedKeys());
        AuditTrail audit = new AuditTrail(events, clock);
        RefusalDigest refusals = new RefusalDigest(audit, REFUSAL_WINDOW, REFUSALS_JOURNALED_AT_ONCE, REFUSAL_GROUPS,
                REFUSAL_SPIKE_PER_WINDOW);
        // refusals of signed-in callers: their own digest and budget, and no spike alarm (Long.MAX_VALUE)
        AccessRefusals accessRefusals = new AccessRefusals(new RefusalDigest(audit, REFUSAL_WINDOW,
                REFUSALS_JOURNALED_AT_ONCE, REFUSAL_GROUPS, Long.MAX_VALUE));
        return new Auth(directory, roles, users, tokens, sessions, throttle,
                new Authenticator(users, roles, sessions, tokens, damage),
                new SignIn(users, sessions, throttle, gate, audit, refusals, damage),
                new UserAdministration(users, tokens, sessions, throttle, audit),
                new AdminBootstrap(users, audit, refusals, clock, Duration.ofMillis(config.setupTokenTtlMs()),
                        config.adminUsername(), announcer), accessRefusals);
    }

    /**
     * The store files found damaged on open, each set aside in {@code corrupt/}; empty normally. While any is
     * listed, sign-in, setup and API tokens are refused with {@link StoreDamage#message}, and nothing writes
     * either file; the way out is {@link AdminReset} or a restore.
     */
    public List<StoreDamage> damage() {
        return Stream.concat(users.damage().stream(), tokens.damage().stream()).toList();
    }

    /** A daemon thread that journals refusal summaries (sign-in, setup, permission) soon after their window passed. */
    private static void startRefusalFlusher(Auth auth) {
        ScheduledExecutorService flusher = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "qubiq-auth-refusal-flusher");
            thread.setDaemon(true);
            return thread;
        });
        long period = REFUSAL_FLUSH_PERIOD.toMillis();
        Runnable flush = () -> {
            auth.signIn().flushRefusals();
            auth.accessRefusals().flushDue();
        };
        flusher.scheduleWithFixedDelay(Periodic.guarded(flush, e -> LOG.warn(
                "Could not journal the summary of refused requests; it is tried again in {} ms: {}", period,
                e.toString())), period, period, TimeUnit.MILLISECONDS);
    }
}
