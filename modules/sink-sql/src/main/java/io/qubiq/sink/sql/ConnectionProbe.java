package io.qubiq.sink.sql;

import com.zaxxer.hikari.HikariDataSource;
import io.qubiq.core.health.ConnectionStatus;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;

/**
 * Checks the database without writing: borrows a connection of the sink's pool (never the one a
 * write holds: the pool has at least two) and asks the driver {@code isValid}, which for
 * PostgreSQL is a round trip to the server. UP when it answers within the connection timeout;
 * DOWN with the reason when no connection can be had or it does not answer. Never throws.
 *
 * <p>Thread-safe: the pool is.
 */
final class ConnectionProbe {

    private final HikariDataSource pool;
    private final int timeoutSeconds;
    private final Clock clock;

    ConnectionProbe(HikariDataSource pool, SqlSinkConfig config, Clock clock) {
        this.pool = pool;
        this.timeoutSeconds = (int) Math.max(1, (config.connectionTimeoutMs() + 999) / 1000);
        this.clock = clock;
    }

    ConnectionStatus probe() {
        try (Connection connection = pool.getConnection()) {
            return connection.isValid(timeoutSeconds) ? ConnectionStatus.up(clock.instant())
                    : ConnectionStatus.down(clock.instant(), "the database did not answer within " + timeoutSeconds
                            + " s");
        } catch (SQLException e) {
            return ConnectionStatus.down(clock.instant(), SqlFailureClassifier.describe(e));
        } catch (RuntimeException e) {
            return ConnectionStatus.down(clock.instant(), "probe failed: " + e);
        }
    }
}
