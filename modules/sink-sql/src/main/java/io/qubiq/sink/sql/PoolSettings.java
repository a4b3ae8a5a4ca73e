package io.qubiq.sink.sql;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.qubiq.core.error.ConfigurationException;

/**
 * The HikariCP pool of one SQL sink. It exists while the database is down
 * ({@code initializationFailTimeout = -1}: nothing is opened at start), holds no idle connection it
 * was not asked for ({@code minimumIdle = 0}, so an outage causes no background reconnect storm),
 * hands out connections with autocommit off (the sink commits each batch itself), and waits
 * {@code connection_timeout_ms} for one. Validation (Hikari's {@code isValid} on borrow) is capped
 * at the same time, at most 5 s. No JMX beans.
 */
final class PoolSettings {

    static final long MAX_VALIDATION_MS = 5_000;

    private PoolSettings() {
    }

    /**
     * @throws ConfigurationException when no JDBC driver on the class path accepts the URL
     */
    static HikariDataSource open(String id, SqlSinkConfig config) throws ConfigurationException {
        HikariConfig hikari = new HikariConfig();
        hikari.setPoolName("sql-" + id);
        hikari.setJdbcUrl(config.jdbcUrl());
        config.username().ifPresent(hikari::setUsername);
        config.password().ifPresent(hikari::setPassword);
        hikari.setMaximumPoolSize(config.maxPoolSize());
        hikari.setMinimumIdle(0);
        hikari.setConnectionTimeout(config.connectionTimeoutMs());
        hikari.setValidationTimeout(Math.min(MAX_VALIDATION_MS, config.connectionTimeoutMs()));
        hikari.setInitializationFailTimeout(-1);
        hikari.setAutoCommit(false);
        hikari.setRegisterMbeans(false);
        try {
            return new HikariDataSource(hikari);
        } catch (RuntimeException e) {
            throw new ConfigurationException("jdbc_url", "no JDBC driver accepts " + redacted(config.jdbcUrl()) + ": "
                    + e.getMessage(), e);
        }
    }

    /** The URL without its properties (which may hold a password), for logs and messages. */
    static String redacted(String jdbcUrl) {
        int cut = jdbcUrl.length();
        for (char c : new char[] {'?', ';'}) {
            int at = jdbcUrl.indexOf(c);
            if (at >= 0 && at < cut) {
                cut = at;
            }
        }
        return cut == jdbcUrl.length() ? jdbcUrl : jdbcUrl.substring(0, cut) + "?…";
    }
}
