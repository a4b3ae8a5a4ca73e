package io.qubiq.testkit.questdb;

/** QuestDB answered an {@code /exec} query with an error (unknown table, syntax error, ...). */
public final class QuestDbQueryException extends RuntimeException {

    public QuestDbQueryException(String sql, String error) {
        super("QuestDB rejected [" + sql + "]: " + error);
    }
}
