package io.qubiq.sink.sql;

import java.sql.BatchUpdateException;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which entry of a failed JDBC batch was the culprit, where the driver says so truthfully.
 *
 * <ul>
 *   <li>pgjdbc names it in its message, {@code Batch entry N ... was aborted} (N formatted with
 *       the JVM locale's digit grouping: {@code 1,337}). In a transaction it
 *       marks every entry {@code EXECUTE_FAILED}, so its update counts say nothing. The message is
 *       read only in English (other JVM locales translate it) and only when the driver does not
 *       rewrite batched inserts into multi-row statements ({@code reWriteBatchedInserts=true}),
 *       where N counts rewritten statements, not rows.
 *   <li>Other drivers: update counts shorter than the batch mean the driver stopped at the failing
 *       entry; counts with exactly one {@code EXECUTE_FAILED} among successes name that entry.
 *   <li>A failure that is not a batch failure names the entry only when the batch has one.
 * </ul>
 *
 * Anything else is unknown: the sink then names no row and the channel bisects the batch.
 */
final class FailedEntry {

    /** The index as MessageFormat writes it: with the default locale's grouping separators ("1,337"). */
    private static final Pattern PGJDBC_ENTRY = Pattern.compile("^Batch entry ([0-9][0-9,.'\u00a0\u202f]*) ");

    private FailedEntry() {
    }

    /**
     * @param e          what {@code executeBatch} threw
     * @param batchSize  how many entries the JDBC batch had
     * @param rewriting  whether the driver rewrites the batch into multi-row statements
     * @return the failing entry's index in the JDBC batch (0-based), when known
     */
    static OptionalInt of(SQLException e, int batchSize, boolean rewriting) {
        if (!(e instanceof BatchUpdateException batch)) {
            return batchSize == 1 ? OptionalInt.of(0) : OptionalInt.empty();
        }
        if (batchSize == 1) {
            return OptionalInt.of(0);
        }
        if (rewriting) {
            return OptionalInt.empty();
        }
        Matcher entry = PGJDBC_ENTRY.matcher(String.valueOf(batch.getMessage()));
        if (entry.find()) {
            try {
                int index = Integer.parseInt(entry.group(1).replaceAll("[^0-9]", ""));
                return index < batchSize ? OptionalInt.of(index) : OptionalInt.empty();
            } catch (NumberFormatException tooLarge) {
                return OptionalInt.empty();
            }
        }
        return fromUpdateCounts(batch.getUpdateCounts(), batchSize);
    }

    private static OptionalInt fromUpdateCounts(int[] counts, int batchSize) {
        if (counts == null) {
            return OptionalInt.empty();
        }
        if (counts.length < batchSize) {
            return OptionalInt.of(counts.length);
        }
        if (counts.length != batchSize) {
            return OptionalInt.empty();
        }
        int failed = -1;
        for (int i = 0; i < counts.length; i++) {
            if (counts[i] == Statement.EXECUTE_FAILED) {
                if (failed >= 0) {
                    return OptionalInt.empty();
                }
                failed = i;
            }
        }
        return failed >= 0 ? OptionalInt.of(failed) : OptionalInt.empty();
    }
}
