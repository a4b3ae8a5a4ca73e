/**
 * The SQL sink: executes {@link io.qubiq.sink.sql.SqlRow}s (a statement with named parameters and
 * its values) against a database over JDBC, through a HikariCP pool, one transaction per batch;
 * consecutive rows with the same statement go as one JDBC batch. Any JDBC URL whose driver is on
 * the class path works; PostgreSQL's driver (pgjdbc) is included and the classification is proven
 * against a real PostgreSQL.
 *
 * <p><b>Retriable</b> (transient, nothing was committed): no connection (refused, pool timeout,
 * SQLState class 08, an I/O failure), the server shutting down or starting (57P01–57P03), out of
 * resources (53, 58), a read-only standby (25006), a serialization failure (40001) or deadlock
 * (40P01). <b>Not retriable</b>: a row the database rejects for its data or statement (classes 22,
 * 23, 42 and a few others) is permanent and named by its index where the driver reports it, else
 * the channel bisects; a malformed statement or a missing parameter value is permanent before
 * anything is sent; a failed login or a missing database is a configuration error. A cancelled
 * statement ({@code statement_timeout_ms}, 57014), a COMMIT without an answer and any state not
 * listed are an unknown outcome. With {@code idempotent: true} (statements that end in
 * {@code ON CONFLICT (item_id_column) DO NOTHING} and bind {@code :item_id}) unknown outcomes are
 * replayed safely. See {@code docs/sinks/sql.md}.
 */
package io.qubiq.sink.sql;
