package io.qubiq.historian;

import io.qubiq.questdb.exec.ExecClient;
import io.qubiq.questdb.exec.SqlException;
import io.qubiq.questdb.exec.SqlResult;
import io.qubiq.questdb.exec.SqlText;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings a history table made by an earlier version to the current layout of {@link HistorySchema},
 * in place: table and column names stay, every row stays.
 *
 * <ol>
 *   <li>No {@code gateway} column (versions before it):
 *       {@code ALTER TABLE t ADD COLUMN IF NOT EXISTS gateway SYMBOL}.
 *       The rows already there read {@code gateway} as null.
 *   <li>Dedup keys other than {@link HistorySchema#UPSERT_KEYS} (those versions had {@code (ts, tag)},
 *       which kept one row per tag and timestamp and so collapsed distinct samples):
 *       {@code ALTER TABLE t DEDUP ENABLE UPSERT KEYS(ts, gateway, tag, value, quality)}, which
 *       replaces the key list. QuestDB applies keys to rows written from then on; rows already
 *       stored are not rewritten.
 * </ol>
 *
 * A WAL table applies an {@code ALTER} with its write-ahead log, so the migration waits (bounded)
 * until {@code table_columns()} shows the new layout, then logs at INFO per table what changed (WARN
 * when QuestDB did not apply it in time, such as for a suspended table). Both steps are idempotent: a
 * table already in the current layout is only read, so this runs at every start.
 * A crash between the two steps leaves a table with the column and the old keys, which the next
 * start completes. A row replayed from a buffer written before the upgrade has no gateway value and
 * is stored with a null one, as the rows it may duplicate were: it still dedups against them.
 *
 * <p>Stateless; called from {@link HistorySchema#create}.
 */
final class HistoryMigration {

    private static final Logger log = LoggerFactory.getLogger(HistoryMigration.class);
    /** Longest {@link #migrate} waits for QuestDB to apply its changes, all tables together. */
    static final Duration APPLY_WAIT = Duration.ofSeconds(10);
    private static final long POLL_MS = 50;

    private HistoryMigration() {
    }

    /**
     * Migrates each of {@code tables} that exists and needs it, and waits (up to {@link #APPLY_WAIT})
     * until QuestDB has applied the changes: on a WAL table an {@code ALTER} takes effect when the
     * table's write-ahead log is applied, not when the statement returns.
     *
     * @return the changes made, each as {@code table: added column gateway} or
     *     {@code table: dedup keys (old) -> (new)}
     * @throws SqlException QuestDB is unreachable, or refused a statement
     */
    static List<String> migrate(ExecClient exec, List<String> tables) throws SqlException {
        List<String> changes = new ArrayList<>();
        List<String> altered = new ArrayList<>();
        for (String table : tables) {
            Layout layout = Layout.of(exec, table);
            if (!layout.hasGateway()) {
                exec.exec("ALTER TABLE " + table + " ADD COLUMN IF NOT EXISTS gateway SYMBOL");
                changes.add(table + ": added column gateway");
            }
            if (!layout.current()) {
                exec.exec("ALTER TABLE " + table + " DEDUP ENABLE UPSERT KEYS" + keys(HistorySchema.UPSERT_KEYS));
                changes.add(table + ": dedup keys " + keys(layout.keys()) + " -> " + keys(HistorySchema.UPSERT_KEYS));
            }
            if (!layout.hasGateway() || !layout.current()) {
                altered.add(table);
            }
        }
        long deadline = System.nanoTime() + APPLY_WAIT.toNanos();
        for (String table : altered) {
            List<String> mine = changes.stream().filter(c -> c.startsWith(table + ": ")).toList();
            if (awaitApplied(exec, table, deadline)) {
                log.info("History table {} migrated ({}): samples of one tag that share a timestamp but differ in value"
                        + " or quality are each stored from now on, and rows carry the gateway's identity; rows"
                        + " stored before are kept as they were (gateway empty)", table, String.join("; ", mine));
            } else {
                log.warn("History table {}: migration requested ({}) but not applied by QuestDB within {} s; it takes"
                        + " effect when the table's write-ahead log is applied (see the WAL supervisor if the table is"
                        + " suspended)", table, String.join("; ", mine), APPLY_WAIT.toSeconds());
            }
        }
        return changes;
    }

    private static boolean awaitApplied(ExecClient exec, String table, long deadlineNanos) throws SqlException {
        while (true) {
            Layout layout = Layout.of(exec, table);
            if (layout.hasGateway() && layout.current()) {
                return true;
            }
            if (System.nanoTime() - deadlineNanos > 0) {
                return false;
            }
            try {
                Thread.sleep(POLL_MS); // a one-off wait at start for QuestDB's WAL apply; no faster signal exists
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
    }

    private static String keys(List<String> keys) {
        return "(" + String.join(", ", keys) + ")";
    }

    /** What {@code table_columns()} says of a table now. */
    private record Layout(boolean hasGateway, List<String> keys) {

        static Layout of(ExecClient exec, String table) throws SqlException {
            SqlResult columns = exec.exec("SELECT \"column\", upsertKey FROM table_columns("
                    + SqlText.literal(table) + ")");
            int nameAt = columns.indexOf("column");
            int keyAt = columns.indexOf("upsertKey");
            boolean hasGateway = false;
            List<String> keys = new ArrayList<>();
            for (List<Object> row : columns.rows()) {
                String name = String.valueOf(row.get(nameAt));
                hasGateway |= name.equals("gateway");
                if (Boolean.TRUE.equals(row.get(keyAt))) {
                    keys.add(name);
                }
            }
            return new Layout(hasGateway, keys);
        }

        boolean current() {
            return sameKeys(keys, HistorySchema.UPSERT_KEYS);
        }
    }

    private static boolean sameKeys(List<String> actual, List<String> wanted) {
        return actual.size() == wanted.size() && actual.containsAll(wanted);
    }
}
