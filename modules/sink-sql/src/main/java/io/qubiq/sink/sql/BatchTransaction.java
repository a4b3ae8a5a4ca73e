package io.qubiq.sink.sql;

import io.qubiq.core.error.GatewayException;
import io.qubiq.core.error.PermanentException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.Executor;
import org.postgresql.core.BaseConnection;
import org.postgresql.jdbc.PgStatement;

/**
 * Writes one batch in one transaction on one connection (autocommit off): each run of consecutive
 * rows with the same statement is one prepared statement executed as one JDBC batch, then COMMIT.
 * On any failure the transaction is rolled back and the failure classified by the phase it
 * happened in ({@link SqlFailureClassifier}); a value the driver refuses while it is bound names
 * the row being bound; a connection left in doubt (any failure that is not
 * a rejected row) is reported so the caller can evict it from the pool.
 *
 * <p>Timeouts: {@code statement_timeout_ms} bounds the whole batch. Before each run the time left
 * is set as the statement's query timeout (pgjdbc in milliseconds, other drivers in whole
 * seconds, rounded up); the driver cancels a statement that overruns (SQLState 57014). As a last
 * resort against a server that stops answering altogether, the connection's network timeout is
 * the statement timeout plus the connection timeout: a socket read that waits longer fails the
 * connection.
 *
 * <p>Not thread-safe: used by the sink's writing thread.
 */
final class BatchTransaction {

    private static final Executor DIRECT = Runnable::run;

    /** What went wrong, and whether the connection should be discarded. */
    static final class Failed extends Exception {
        final GatewayException failure;
        final boolean connectionSuspect;

        Failed(GatewayException failure, boolean connectionSuspect) {
            super(failure.getMessage(), null, false, false);
            this.failure = failure;
            this.connectionSuspect = connectionSuspect;
        }
    }

    private final ParameterBinder binder = new ParameterBinder();
    private final SqlFailureClassifier classifier;
    private final long statementTimeoutMs;
    private final int networkTimeoutMs;

    BatchTransaction(SqlSinkConfig config, SqlFailureClassifier classifier) {
        this.classifier = classifier;
        this.statementTimeoutMs = config.statementTimeoutMs();
        this.networkTimeoutMs = config.statementTimeoutMs() == 0 ? 0
                : (int) Math.min(Integer.MAX_VALUE, config.statementTimeoutMs() + config.connectionTimeoutMs());
    }

    void write(Connection connection, List<SqlRow> batch, BatchPlan plan) throws Failed {
        long deadline = System.nanoTime() + statementTimeoutMs * 1_000_000L;
        int runStart = 0;
        int runEnd = 0;
        int binding = -1;
        try {
            networkTimeout(connection);
            while (runStart < batch.size()) {
                runEnd = plan.runEnd(runStart);
                NamedStatement statement = plan.statement(runStart);
                try (PreparedStatement ps = connection.prepareStatement(statement.jdbcSql())) {
                    limit(ps, deadline);
                    for (binding = runStart; binding < runEnd; binding++) {
                        binder.bind(ps, statement, batch.get(binding));
                        ps.addBatch();
                    }
                    binding = -1;
                    ps.executeBatch();
                }
                runStart = runEnd;
            }
        } catch (SQLException e) {
            rollbackQuietly(connection);
            OptionalInt row;
            if (binding >= 0) {
                row = OptionalInt.of(binding);
            } else {
                OptionalInt entry = FailedEntry.of(e, runEnd - runStart, rewritesBatches(connection));
                row = entry.isPresent() ? OptionalInt.of(runStart + entry.getAsInt()) : OptionalInt.empty();
            }
            GatewayException failure = classifier.executeFailed(e, row);
            throw new Failed(failure, !(failure instanceof PermanentException));
        } catch (RuntimeException e) {
            rollbackQuietly(connection);
            throw new Failed(classifier.unexpected(e, false), true);
        }
        try {
            connection.commit();
        } catch (SQLException e) {
            rollbackQuietly(connection);
            throw new Failed(classifier.commitFailed(e), true);
        } catch (RuntimeException e) {
            throw new Failed(classifier.unexpected(e, true), true);
        }
    }

    private void networkTimeout(Connection connection) throws SQLException {
        if (networkTimeoutMs > 0) {
            try {
                connection.setNetworkTimeout(DIRECT, networkTimeoutMs);
            } catch (SQLFeatureNotSupportedException notSupported) {
                // the driver has no socket timeout: the query timeout has to do
            }
        }
    }

    /** The time left until the batch's deadline as the statement's query timeout. */
    private void limit(PreparedStatement ps, long deadline) throws SQLException {
        if (statementTimeoutMs == 0) {
            return;
        }
        long leftMs = Math.max(1, (deadline - System.nanoTime()) / 1_000_000L);
        if (ps.isWrapperFor(PgStatement.class)) {
            ps.unwrap(PgStatement.class).setQueryTimeoutMs(leftMs);
        } else {
            ps.setQueryTimeout((int) Math.min(Integer.MAX_VALUE, (leftMs + 999) / 1000));
        }
    }

    /** pgjdbc with {@code reWriteBatchedInserts=true}: its batch entries are not rows. */
    private static boolean rewritesBatches(Connection connection) {
        try {
            return connection.isWrapperFor(BaseConnection.class)
                    && connection.unwrap(BaseConnection.class).getQueryExecutor().isReWriteBatchedInsertsEnabled();
        } catch (SQLException | RuntimeException e) {
            return true;
        }
    }

    private static void rollbackQuietly(Connection connection) {
        try {
            connection.rollback();
        } catch (SQLException | RuntimeException ignored) {
            // a broken connection: the server rolls the transaction back when the session ends
        }
    }
}
