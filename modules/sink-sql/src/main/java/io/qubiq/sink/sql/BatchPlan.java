package io.qubiq.sink.sql;

import io.qubiq.core.error.PermanentException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The parsed statement of every row of a batch, checked before a connection is taken: a row whose
 * statement does not parse, or which lacks a value for one of its parameters, can never be
 * written, so the whole batch is refused as a {@link PermanentException} naming exactly those rows
 * (nothing is sent; the channel quarantines them and writes the others again).
 *
 * <p>Not thread-safe: made and used by the sink's writing thread.
 */
final class BatchPlan {

    private final NamedStatement[] statements;

    private BatchPlan(NamedStatement[] statements) {
        this.statements = statements;
    }

    /**
     * @throws PermanentException naming every row that cannot be executed
     */
    static BatchPlan of(List<SqlRow> batch, StatementCache cache) throws PermanentException {
        NamedStatement[] statements = new NamedStatement[batch.size()];
        List<PermanentException.RejectedItem> rejected = new ArrayList<>();
        String previousSql = null;
        NamedStatement previous = null;
        for (int i = 0; i < batch.size(); i++) {
            SqlRow row = batch.get(i);
            NamedStatement statement;
            if (row.statement() == previousSql) {
                statement = previous;
            } else {
                try {
                    statement = cache.get(row.statement());
                } catch (IllegalArgumentException e) {
                    rejected.add(new PermanentException.RejectedItem(i, e.getMessage()));
                    continue;
                }
                previousSql = row.statement();
                previous = statement;
            }
            Optional<String> missing = ParameterBinder.missing(statement, row);
            if (missing.isPresent()) {
                rejected.add(new PermanentException.RejectedItem(i, "the statement uses :" + missing.get()
                        + ", which this row has no value for"));
                continue;
            }
            statements[i] = statement;
        }
        if (!rejected.isEmpty()) {
            throw new PermanentException(rejected.size() + " row(s) of the batch cannot be executed, such as row "
                    + rejected.get(0).index() + ": " + rejected.get(0).reason() + "; nothing was sent", rejected, null);
        }
        return new BatchPlan(statements);
    }

    int size() {
        return statements.length;
    }

    NamedStatement statement(int row) {
        return statements[row];
    }

    /** The end (exclusive) of the run of rows from {@code start} that share one statement. */
    int runEnd(int start) {
        int end = start + 1;
        while (end < statements.length && statements[end] == statements[start]) {
            end++;
        }
        return end;
    }
}
