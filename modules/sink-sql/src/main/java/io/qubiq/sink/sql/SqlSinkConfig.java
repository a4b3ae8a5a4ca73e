package io.qubiq.sink.sql;

import io.qubiq.core.config.ConfigChecked;
import io.qubiq.core.config.Default;
import io.qubiq.core.config.Doc;
import io.qubiq.core.config.Range;
import io.qubiq.core.config.Secret;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * How the SQL sink reaches its database. The pool never retries on its own behalf beyond waiting
 * {@code connection_timeout_ms} for a connection: the store-and-forward channel retries.
 */
@Doc("A SQL database written over JDBC: batched parameterized statements, one transaction per batch.")
public record SqlSinkConfig(
        @Doc("JDBC URL of the database, such as jdbc:postgresql://db.plant.local:5432/plant. Any JDBC URL works"
                + " whose driver is on the gateway's class path; the PostgreSQL driver is included. Driver"
                + " properties go in the URL (?ssl=true&sslmode=verify-full).")
        String jdbcUrl,

        @Doc("User name to log in with. Left out, the driver's default (or the URL's user property) applies.")
        Optional<String> username,

        @Doc("Password to log in with; requires username.")
        @Secret
        Optional<String> password,

        @Doc("Most connections the sink holds: one for writes, one for the connection monitor's probe, so that"
                + " a probe never waits behind a write.")
        @Default("2")
        @Range(min = 2, max = 64)
        int maxPoolSize,

        @Doc("How long a write or probe waits for a connection (opening one included) before the database"
                + " counts as unreachable.")
        @Default("5000")
        @Range(min = 250, max = 600000)
        long connectionTimeoutMs,

        @Doc("How long the statements of one batch may run before they are cancelled; 0 for no limit. A batch"
                + " cancelled this way has an unknown outcome for the channel: it is retried up to"
                + " max_delivery_attempts, then quarantined as \"outcome unknown\" (unless idempotent).")
        @Default("30000")
        @Range(min = 0, max = 3600000)
        long statementTimeoutMs,

        @Doc("Whether replaying a row that may already be written is harmless, because every statement this"
                + " connection runs binds :item_id into a unique column and ends in ON CONFLICT (that column) DO"
                + " NOTHING. Then writes with an unknown outcome are retried without a cap.")
        @Default("false")
        boolean idempotent) implements ConfigChecked {

    /** {@code jdbcUrl} with every other key at its default. */
    public static SqlSinkConfig of(String jdbcUrl) {
        return new SqlSinkConfig(jdbcUrl, Optional.empty(), Optional.empty(), 2, 5_000, 30_000, false);
    }

    public SqlSinkConfig withCredentials(String user, String secret) {
        return new SqlSinkConfig(jdbcUrl, Optional.of(user), Optional.ofNullable(secret), maxPoolSize,
                connectionTimeoutMs, statementTimeoutMs, idempotent);
    }

    public SqlSinkConfig withMaxPoolSize(int value) {
        return new SqlSinkConfig(jdbcUrl, username, password, value, connectionTimeoutMs, statementTimeoutMs,
                idempotent);
    }

    public SqlSinkConfig withConnectionTimeoutMs(long value) {
        return new SqlSinkConfig(jdbcUrl, username, password, maxPoolSize, value, statementTimeoutMs, idempotent);
    }

    public SqlSinkConfig withStatementTimeoutMs(long value) {
        return new SqlSinkConfig(jdbcUrl, username, password, maxPoolSize, connectionTimeoutMs, value, idempotent);
    }

    public SqlSinkConfig withIdempotent(boolean value) {
        return new SqlSinkConfig(jdbcUrl, username, password, maxPoolSize, connectionTimeoutMs, statementTimeoutMs,
                value);
    }

    @Override
    public List<Violation> violations() {
        List<Violation> violations = new ArrayList<>();
        if (jdbcUrl == null || !jdbcUrl.startsWith("jdbc:") || jdbcUrl.length() == "jdbc:".length()) {
            violations.add(new Violation("jdbc_url", "expected a JDBC URL starting with jdbc:, such as"
                    + " jdbc:postgresql://host:5432/database"));
        }
        if (password.isPresent() && username.isEmpty()) {
            violations.add(new Violation("username", "a password needs a username"));
        }
        return violations;
    }

    @Override
    public String toString() {
        return "SqlSinkConfig[jdbcUrl=" + jdbcUrl + ", username=" + username.orElse("(default)") + ", password="
                + (password.isPresent() ? "***" : "(none)") + ", maxPoolSize=" + maxPoolSize + ", connectionTimeoutMs="
                + connectionTimeoutMs + ", statementTimeoutMs=" + statementTimeoutMs + ", idempotent=" + idempotent
                + "]";
    }
}
