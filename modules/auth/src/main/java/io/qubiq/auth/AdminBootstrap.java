package io.qubiq.auth;

import io.qubiq.core.event.AuditAction;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Creates the first administrator; there is never a default password.
 *
 * <p>At start with no users, {@link #start} either creates {@code adminUsername} with role {@code admin}
 * from the configured password (config key {@code auth.admin_password}, normally {@code ${VAR}} from the
 * environment), or issues a one-time setup token: 160 random bits, announced once (the production
 * announcer logs it at WARN, the only place it ever appears), kept only as its SHA-256, valid for
 * {@code ttl}. {@link #claimSetup} with that token creates the first administrator and burns the token.
 * A wrong, expired or used token is refused and audited through the {@link RefusalDigest} (the first
 * refusal per address and minute on its own, the rest summarized), so refused claims cannot flood the
 * journal; the successful claim is always journaled on its own, marked {@code keep: always} (as is the
 * creation from the configured password), so the journal's retention never drops it. A claim whose password breaks the policy is
 * refused without burning the token. When users exist, {@link #start} does nothing, and a configured
 * admin password is ignored (it never resets an existing password). A users file found damaged on open is
 * not "no users": {@link #start} answers {@link State#STORE_DAMAGED} and issues nothing, and claims are refused.
 *
 * <p>Crash: the token lives in memory only; a restart without users announces a new one, the old one
 * is dead. A claim is committed once the user store wrote the new user.
 *
 * <p>Threading: {@link #start} is called once by the starting thread; {@link #claimSetup} is
 * synchronized, so two racing claims create one administrator.
 */
public final class AdminBootstrap {

    /** What {@link #start} found or did. */
    public enum State { USERS_EXIST, ADMIN_CREATED, AWAITING_SETUP, STORE_DAMAGED }

    private final UserStore users;
    private final AuditTrail audit;
    private final RefusalDigest refusals;
    private final Clock clock;
    private final Duration ttl;
    private final String adminUsername;
    private final Consumer<String> announcer;
    private String tokenHash;
    private Instant tokenExpires;

    /**
     * @param announcer receives the text announcing the setup token (with the token in it), once
     */
    AdminBootstrap(UserStore users, AuditTrail audit, RefusalDigest refusals, Clock clock, Duration ttl,
                   String adminUsername, Consumer<String> announcer) {
        this.users = users;
        this.audit = audit;
        this.refusals = refusals;
        this.clock = clock;
        this.ttl = ttl;
        this.adminUsername = adminUsername;
        this.announcer = announcer;
    }

    public synchronized State start(Optional<String> adminPassword) {
        if (users.damage().isPresent()) {
            return State.STORE_DAMAGED; // a damaged store is not "no users yet": no setup, no configured admin
        }
        if (!users.isEmpty()) {
            return State.USERS_EXIST;
        }
        if (adminPassword.isPresent()) {
            UserAccount admin = users.create(adminUsername, adminPassword.get(), List.of(Role.ADMIN.name()));
            audit.record(AuditTrail.SYSTEM, AuditAction.USER_CREATE, "user/" + admin.name(),
                    "created from the configured admin password", "local", "roles", Role.ADMIN.name(),
                    AuditAction.DETAIL_KEEP, AuditAction.KEEP_ALWAYS);
            return State.ADMIN_CREATED;
        }
        String token = "setup_" + Secrets.random(20);
        tokenHash = Secrets.sha256(token);
        tokenExpires = clock.instant().plus(ttl);
        announcer.accept("No users exist yet and no admin password is configured. Open the console and create the"
                + " first administrator with this one-time setup token (valid until " + tokenExpires
                + "; a restart issues a new one): " + token);
        return State.AWAITING_SETUP;
    }

    /** Whether a setup token is waiting to be claimed (and has not expired). */
    public synchronized boolean setupPending() {
        return tokenHash != null && clock.instant().isBefore(tokenExpires) && users.isEmpty()
                && users.damage().isEmpty();
    }

    /**
     * Turns the setup token into the first administrator.
     *
     * @throws SetupRefusedException if the token is wrong, expired or used, or users exist
     * @throws PasswordRejectedException if the password breaks the policy (the token stays valid)
     * @throws InvalidNameException if the user name breaks the naming rules (the token stays valid)
     */
    public synchronized UserAccount claimSetup(String token, String username, String password, String from) {
        String who = AuditTrail.printable(username);
        String problem = null;
        if (users.damage().isPresent()) {
            problem = users.damage().get().message();
        } else if (tokenHash == null || !users.isEmpty()) {
            problem = "no setup is pending";
        } else if (token == null || !Secrets.constantTimeEquals(Secrets.sha256(token), tokenHash)) {
            problem = "wrong setup token";
        } else if (!clock.instant().isBefore(tokenExpires)) {
            problem = "the setup token expired at " + tokenExpires + "; restart the gateway for a new one";
        }
        if (problem != null) {
            refusals.refused(who, AuditAction.SETUP_CLAIM, "user/" + who, "refused: " + problem, from);
            throw new SetupRefusedException(problem);
        }
        UserAccount admin;
        try {
            admin = users.create(username, password, List.of(Role.ADMIN.name()));
        } catch (AccountException refused) {
            refusals.refused(who, AuditAction.SETUP_CLAIM, "user/" + who, "refused: " + refused.getMessage(), from);
            throw refused;
        }
        tokenHash = null;
        tokenExpires = null;
        audit.record(admin.name(), AuditAction.SETUP_CLAIM, "user/" + admin.name(), "first administrator created",
                from, "roles", Role.ADMIN.name(), AuditAction.DETAIL_KEEP, AuditAction.KEEP_ALWAYS);
        return admin;
    }
}
