package io.qubiq.sink.sql;

import com.zaxxer.hikari.HikariDataSource;
import io.qubiq.core.error.ConfigurationException;
import io.qubiq.core.error.GatewayException;
import io.qubiq.core.health.ConnectionStatus;
import io.qubiq.core.sink.Sink;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes {@link SqlRow}s to a SQL database over JDBC through a HikariCP pool. Each {@link #write}
 * is one transaction: the rows' statements are parsed (once per distinct statement, then cached)
 * and checked, consecutive rows with the same statement are sent as one JDBC batch, and the
 * transaction is committed; {@code write} returns only after COMMIT succeeded. On any failure the
 * transaction is rolled back, so a failure never leaves part of a batch written, except where
 * COMMIT itself failed without a verdict (unknown outcome).
 *
 * <p>Failures are classified by SQLState ({@link SqlFailureClassifier}): connection trouble,
 * serialization failures and deadlocks are transient; data, constraint and statement errors
 * permanent, naming the failing row where the driver says which; a cancelled statement
 * ({@code statement_timeout_ms}) or a COMMIT that got no answer an unknown outcome. A connection
 * involved in any failure other than a rejected row is evicted from the pool. The sink never
 * retries and never sleeps; the pool only waits up to {@code connection_timeout_ms} for a
 * connection.
 *
 * <p>The pool is created without connecting, so the sink exists while the database is down.
 *
 * <p>Threading: {@link #write} and {@link #close} are called by one thread at a time (the
 * channel's forwarder, or a producer under the channel's latch); {@link #probe} may run
 * concurrently on the monitor's thread and uses another connection of the pool.
 */
public final class SqlSink implements Sink<SqlRow> {

    private static final Logger log = LoggerFactory.getLogger(SqlSink.class);

    private final String id;
    private final boolean idempotent;
    private final HikariDataSource pool;
    private final SqlFailureClassifier classifier;
    private final StatementCache statements = new StatementCache();
    private final BatchTransaction transaction;
    private final ConnectionProbe probe;
    private volatile boolean closed;

    /**
     * @throws ConfigurationException when the configuration is inconsistent (the same checks the
     *     configuration binder reports) or no JDBC driver accepts the URL
     */
    public SqlSink(String id, SqlSinkConfig config, Clock clock) throws ConfigurationException {
        this.id = Objects.requireNonNull(id, "id");
        List<SqlSinkConfig.Violation> violations = config.violations();
        if (!violations.isEmpty()) {
            SqlSinkConfig.Violation first = violations.get(0);
            throw new ConfigurationException(first.key(), first.message());
        }
        this.idempotent = config.idempotent();
        this.classifier = new SqlFailureClassifier(config);
        this.transaction = new BatchTransaction(config, classifier);
        this.pool = PoolSettings.open(id, config);
        this.probe = new ConnectionProbe(pool, config, clock);
    }

    public SqlSink(String id, SqlSinkConfig config) throws ConfigurationException {
        this(id, config, Clock.systemUTC());
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public void write(List<SqlRow> batch) throws GatewayException {
        if (closed) {
            throw new IllegalStateException("SQL sink " + id + " is closed");
        }
        if (batch.isEmpty()) {
            return;
        }
        BatchPlan plan = BatchPlan.of(batch, statements);
        Connection connection;
        try {
            connection = pool.getConnection();
        } catch (SQLException e) {
            GatewayException failure = classifier.connectFailed(e);
            log.debug("SQL sink {}: no connection for a batch of {} rows: {}", id, batch.size(), failure.getMessage());
            throw failure;
        }
        try {
            transaction.write(connection, batch, plan);
        } catch (BatchTransaction.Failed failed) {
            if (failed.connectionSuspect) {
                evict(connection);
            }
            log.debug("SQL sink {}: batch of {} rows failed ({}): {}", id, batch.size(),
                    failed.failure.failureClass(), failed.failure.getMessage());
            throw failed.failure;
        } finally {
            closeQuietly(connection);
        }
    }

    @Override
    public ConnectionStatus probe() {
        return probe.probe();
    }

    @Override
    public boolean idempotent() {
        return idempotent;
    }

    /** Closes the pool and every connection in it; idempotent. */
    @Override
    public void close() {
        closed = true;
        pool.close();
    }

    private void evict(Connection connection) {
        try {
            pool.evictConnection(connection);
        } catch (RuntimeException e) {
            log.debug("SQL sink {}: evicting a connection failed: {}", id, e.toString());
        }
    }

    private void closeQuietly(Connection connection) {
        try {
            connection.close();
        } catch (SQLException | RuntimeException e) {
            log.debug("SQL sink {}: returning a connection failed: {}", id, e.toString());
        }
    }
}
