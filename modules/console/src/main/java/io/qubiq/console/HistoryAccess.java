package io.qubiq.console;

import java.util.List;
import java.util.Map;

/**
 * What the console may ask of the historian. The application implements it; results are records
 * the console serializes as they are.
 */
public interface HistoryAccess {

    /**
     * Runs a history query from the raw query parameters ({@code tags}, {@code from}, {@code to},
     * {@code interval}, {@code agg}).
     *
     * @throws ApiError 400 for a bad parameter (naming it), 422 when the result would exceed the
     *     configured row limit, 503 when QuestDB cannot be reached
     */
    Object query(Map<String, List<String>> params);

    /** The WAL supervisor's view of every history table. */
    Object walStatus();

    /** The historian's own status: tables, counters, live tail size. */
    Object status();

    /**
     * The operator action for a table whose WAL holds a poison transaction: resume it from the next
     * transaction, skipping the failed one (audited). Answers the table's status afterwards.
     *
     * @throws ApiError 404 for a table the historian does not write, 503/502 when QuestDB is unreachable
     *     or refuses
     */
    Object skipWalTransaction(String table, String user, String from);
}
