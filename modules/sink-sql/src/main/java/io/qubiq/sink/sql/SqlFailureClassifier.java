package io.qubiq.sink.sql;

import io.qubiq.core.error.ConfigurationException;
import io.qubiq.core.error.GatewayException;
import io.qubiq.core.error.PermanentException;
import io.qubiq.core.error.TransientException;
import io.qubiq.core.error.UnknownOutcomeException;
import java.io.IOException;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientConnectionException;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * Turns a JDBC failure into the failure class the channel acts on, by SQLState (the first one
 * found on the exception, its next-exception chain and its causes) and by the phase the write was
 * in. The batch runs in one transaction, so until COMMIT is sent nothing can have been written.
 *
 * <table>
 *   <caption>Classification</caption>
 *   <tr><th>Failure</th><th>getting a connection</th><th>executing the batch</th><th>during COMMIT</th></tr>
 *   <tr><td>class 08, {@code SQLTransientConnectionException} (pool timeout),
 *       {@code SQLNonTransientConnectionException}, an {@code IOException} cause; 57P01–57P03
 *       (shutdown, crash, starting up); classes 53 (resources), 58 (system); 25006 (read-only, a
 *       standby)</td><td>transient</td><td>transient</td><td>unknown outcome</td></tr>
 *   <tr><td>40001 serialization failure, 40P01 deadlock, other class 40 but 40003</td>
 *       <td>transient</td><td>transient</td><td>transient (the server rolled back)</td></tr>
 *   <tr><td>57014 query cancelled ({@code statement_timeout_ms}), 40003 completion unknown</td>
 *       <td>transient</td><td>unknown outcome (57014: a timeout, the channel writes fewer rows at a
 *       time)</td><td>unknown outcome</td></tr>
 *   <tr><td>classes 22 data, 23 constraint, 42 syntax or access, and 21, 27, 2F, 38, 39, 3F, 44,
 *       0A, P0 (a trigger's RAISE)</td><td>transient</td>
 *       <td>permanent, naming the failing row when the driver says which</td>
 *       <td>permanent, row unknown (a deferred constraint: the channel bisects)</td></tr>
 *   <tr><td>class 28 (authentication)</td><td>configuration ({@code username}/{@code password})</td>
 *       <td>as other states</td><td>as other states</td></tr>
 *   <tr><td>3D000 (no such database)</td><td>configuration ({@code jdbc_url})</td>
 *       <td>as other states</td><td>as other states</td></tr>
 *   <tr><td>anything else</td><td>transient</td><td>unknown outcome</td><td>unknown outcome</td></tr>
 * </table>
 *
 * "Unknown outcome" for an unrecognised state is a deliberate choice: it is neither retried
 * forever (a poison row cannot stall the connection) nor quarantined at once (a passing server
 * problem does not dead-letter good data); the channel retries it up to its attempt cap and then
 * quarantines it for an operator.
 *
 * <p>Stateless and thread-safe.
 */
final class SqlFailureClassifier {

    private static final int MAX_CHAIN = 32;
    private static final Set<String> PERMANENT_CLASSES =
            Set.of("21", "22", "23", "27", "2F", "38", "39", "3F", "42", "44", "0A", "P0");

    private final boolean passwordConfigured;

    SqlFailureClassifier(SqlSinkConfig config) {
        this.passwordConfigured = config.password().isPresent();
    }

    /** Getting a connection from the pool failed: nothing was sent. */
    GatewayException connectFailed(SQLException e) {
        String state = sqlState(e).orElse("");
        String reason = describe(e);
        if (state.startsWith("28")) {
            return new ConfigurationException(passwordConfigured ? "password" : "username",
                    "the database refused the login (" + state + "): " + reason, e);
        }
        if (state.equals("3D000")) {
            return new ConfigurationException("jdbc_url", "the database named in the URL does not exist: " + reason, e);
        }
        return new TransientException("database unreachable: " + reason, e);
    }

    /**
     * Executing the statements of the batch failed; the transaction was not committed.
     *
     * @param failing where the failing row is, when the driver says: its index in the batch
     */
    GatewayException executeFailed(SQLException e, OptionalInt failing) {
        String state = sqlState(e).orElse("");
        String reason = describe(e);
        if (connectionLost(e, state)) {
            return new TransientException("database connection failed during the batch; nothing was committed: "
                    + reason, e);
        }
        if (state.startsWith("40") && !state.equals("40003")) {
            return new TransientException(rollbackKind(state) + "; nothing was committed, the batch is retried: "
                    + reason, e);
        }
        if (state.equals("57014")) {
            return UnknownOutcomeException.timedOut("the batch was cancelled (statement_timeout_ms or an operator's"
                    + " cancel); it counts as an attempt with unknown outcome: " + reason, e);
        }
        if (permanent(state)) {
            if (failing.isPresent()) {
                int index = failing.getAsInt();
                return new PermanentException("row " + index + " of the batch was rejected; nothing was committed: "
                        + reason, List.of(new PermanentException.RejectedItem(index, reason)), e);
            }
            return new PermanentException("a row of the batch was rejected (which one the driver does not say);"
                    + " nothing was committed: " + reason, e);
        }
        return new UnknownOutcomeException("the batch failed with " + (state.isEmpty() ? "no SQLState" : "SQLState "
                + state) + ", which has no known failure class; it counts as an attempt with unknown outcome: "
                + reason, e);
    }

    /** COMMIT failed: unless the server said it rolled back, the batch may have been written. */
    GatewayException commitFailed(SQLException e) {
        String state = sqlState(e).orElse("");
        String reason = describe(e);
        if (state.startsWith("40") && !state.equals("40003")) {
            return new TransientException(rollbackKind(state) + " at commit; the server rolled the batch back: "
                    + reason, e);
        }
        if (permanent(state)) {
            return new PermanentException("a row of the batch violated a constraint checked at commit; nothing was"
                    + " committed: " + reason, e);
        }
        return new UnknownOutcomeException("COMMIT failed without a verdict; the batch may have been written: "
                + reason, e);
    }

    /** A failure that is not an SQLException (a driver bug) while the batch was executing. */
    GatewayException unexpected(RuntimeException e, boolean committing) {
        String when = committing ? "during COMMIT" : "during the batch";
        return new UnknownOutcomeException("the JDBC driver failed " + when + ": " + e, e);
    }

    static boolean connectionLost(SQLException e, String state) {
        return state.startsWith("08") || state.startsWith("53") || state.startsWith("58") || state.equals("57P01")
                || state.equals("57P02") || state.equals("57P03") || state.equals("25006")
                || e instanceof SQLTransientConnectionException || e instanceof SQLNonTransientConnectionException
                || causedBy(e, IOException.class);
    }

    private static boolean permanent(String state) {
        return state.length() == 5 && PERMANENT_CLASSES.contains(state.substring(0, 2));
    }

    private static String rollbackKind(String state) {
        return switch (state) {
            case "40001" -> "serialization failure";
            case "40P01" -> "deadlock";
            default -> "transaction rolled back by the server (" + state + ")";
        };
    }

    /** The first SQLState on {@code e}, its next exceptions or its causes. */
    static Optional<String> sqlState(SQLException e) {
        for (Throwable t : chain(e)) {
            if (t instanceof SQLException s && s.getSQLState() != null && !s.getSQLState().isBlank()) {
                return Optional.of(s.getSQLState());
            }
        }
        return Optional.empty();
    }

    /**
     * The most specific message: the first next exception's (the server's own error, where the
     * outer one is a batch summary), else the exception's own; on one line, with its SQLState.
     */
    static String describe(SQLException e) {
        SQLException source = e.getNextException() != null ? e.getNextException() : e;
        String message = String.valueOf(source.getMessage()).strip().replaceAll("\\s*\\n\\s*", " ");
        String state = sqlState(e).map(s -> "[" + s + "] ").orElse("");
        return state + message;
    }

    private static boolean causedBy(SQLException e, Class<? extends Throwable> kind) {
        return chain(e).stream().anyMatch(kind::isInstance);
    }

    /** {@code e}, then its next-exception chain, then the causes of each; cycle-safe and bounded. */
    private static List<Throwable> chain(SQLException e) {
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        java.util.ArrayList<Throwable> order = new java.util.ArrayList<>();
        for (SQLException s = e; s != null && order.size() < MAX_CHAIN && seen.add(s); s = s.getNextException()) {
            order.add(s);
        }
        for (int i = 0, n = order.size(); i < n; i++) {
            for (Throwable c = order.get(i).getCause(); c != null && order.size() < MAX_CHAIN && seen.add(c);
                    c = c.getCause()) {
                order.add(c);
            }
        }
        return order;
    }
}
