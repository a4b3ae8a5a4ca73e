package io.qubiq.auth;

import io.qubiq.core.config.ConfigChecked;
import io.qubiq.core.config.Default;
import io.qubiq.core.config.Doc;
import io.qubiq.core.config.Range;
import io.qubiq.core.config.Secret;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Sign-in, sessions, password hashing and roles of the console (the {@code auth} section). */
@Doc("Users, sign-in and roles of the console and API.")
public record AuthConfig(
        @Doc("A session ends after this long without a request.")
        @Default("1800000")
        @Range(min = 60000, max = 86400000)
        long sessionIdleTimeoutMs,

        @Doc("A session ends this long after sign-in, however active it is (one shift, by default).")
        @Default("43200000")
        @Range(min = 60000, max = 2592000000L)
        long sessionAbsoluteTimeoutMs,

        @Doc("Minimum password length in characters. Every password must also not be a common one (a list of about 8,000) nor contain the user name; see docs/security.md.")
        @Default("12")
        @Range(min = 8, max = 1024)
        int passwordMinLength,

        @Doc("Argon2id memory per password hash, KiB. Raising it (or the passes) upgrades each stored hash at"
                + " that user's next sign-in.")
        @Default("19456")
        @Range(min = 4096, max = 1048576)
        int passwordHashMemoryKib,

        @Doc("Argon2id passes over the memory.")
        @Default("2")
        @Range(min = 1, max = 100)
        int passwordHashIterations,

        @Doc("Argon2id lanes.")
        @Default("1")
        @Range(min = 1, max = 16)
        int passwordHashParallelism,

        @Doc("Failed sign-ins for one user name from one remote address (for names that are no user: from one"
                + " address) before each further such attempt must wait.")
        @Default("5")
        @Range(min = 1, max = 1000)
        int signInFreeFailures,

        @Doc("The first wait once the free failures are used up; it doubles with each further failure.")
        @Default("1000")
        @Range(min = 1, max = 3600000)
        long signInBaseDelayMs,

        @Doc("The longest wait between sign-in attempts; a counter is also forgotten this long after its last"
                + " failure.")
        @Default("900000")
        @Range(min = 1, max = 86400000)
        long signInMaxDelayMs,

        @Doc("Most failure counters kept in memory ((user, address) pairs and addresses together); the least"
                + " recently used are forgotten first.")
        @Default("10000")
        @Range(min = 100, max = 10000000)
        int signInMaxTrackedKeys,

        @Doc("Name of the first administrator when admin_password creates it.")
        @Default("admin")
        String adminUsername,

        @Doc("Password for the first administrator, used only while no user exists (normally ${QUBIQ_ADMIN_PASSWORD}"
                + " from the environment). Without it, the first start logs a one-time setup token instead.")
        @Secret
        Optional<String> adminPassword,

        @Doc("How long the one-time setup token stays valid.")
        @Default("3600000")
        @Range(min = 60000, max = 604800000)
        long setupTokenTtlMs,

        @Doc("Custom roles: role name to the permissions it grants (view_connections, edit_connections, view_tags,"
                + " write_tags, view_history, view_audit, manage_users, manage_configuration). The built-in roles viewer, operator,"
                + " engineer and admin cannot be redefined.")
        @Default("{}")
        Map<String, List<Permission>> roles) implements ConfigChecked {

    /** A blank admin password (such as {@code ${QUBIQ_ADMIN_PASSWORD:-}} with the variable unset) is none. */
    public AuthConfig {
        adminPassword = adminPassword.filter(p -> !p.isBlank());
    }

    /** Every key at its default. */
    public static AuthConfig defaults() {
        return new AuthConfig(1_800_000, 43_200_000, 12, 19_456, 2, 1, 5, 1_000, 900_000, 10_000, "admin",
                Optional.empty(), 3_600_000, Map.of());
    }

    public Argon2Parameters hashParameters() {
        return new Argon2Parameters(passwordHashMemoryKib, passwordHashIterations, passwordHashParallelism);
    }

    @Override
    public List<Violation> violations() {
        List<Violation> violations = new ArrayList<>();
        if (sessionAbsoluteTimeoutMs < sessionIdleTimeoutMs) {
            violations.add(new Violation("session_absolute_timeout_ms", "must be at least session_idle_timeout_ms ("
                    + sessionIdleTimeoutMs + ")"));
        }
        if (signInMaxDelayMs < signInBaseDelayMs) {
            violations.add(new Violation("sign_in_max_delay_ms", "must be at least sign_in_base_delay_ms ("
                    + signInBaseDelayMs + ")"));
        }
        try {
            UserAccount.canonicalName(adminUsername);
        } catch (InvalidNameException e) {
            violations.add(new Violation("admin_username", e.getMessage()));
        }
        adminPassword.flatMap(p -> new PasswordPolicy(Math.max(1, Math.min(passwordMinLength,
                PasswordPolicy.MAX_LENGTH))).problem(adminUsername, p)).ifPresent(problem ->
                violations.add(new Violation("admin_password", problem)));
        roles.forEach((name, permissions) -> {
            if (!Role.isValidName(name)) {
                violations.add(new Violation("roles." + name, "a role name is lower-case letters, digits, _ or -,"
                        + " starting with a letter"));
            } else if (Role.BUILT_IN.stream().anyMatch(r -> r.name().equals(name))) {
                violations.add(new Violation("roles." + name, "built-in role; choose another name"));
            }
        });
        return violations;
    }
}
