package io.qubiq.questdb.exec;

/**
 * A statement sent to QuestDB's {@code /exec} did not succeed. {@link #unreachable()} tells the
 * two cases apart: QuestDB could not be reached or answered with a server error (try again later),
 * or QuestDB refused the statement itself (its message says why; repeating it will not help).
 */
public final class SqlException extends Exception {

    private final boolean unreachable;

    public SqlException(String message, boolean unreachable, Throwable cause) {
        super(message, cause);
        this.unreachable = unreachable;
    }

    public boolean unreachable() {
        return unreachable;
    }
}
