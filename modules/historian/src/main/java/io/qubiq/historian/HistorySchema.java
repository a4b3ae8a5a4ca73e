package io.qubiq.historian;

import io.qubiq.core.tag.DataType;
import io.qubiq.questdb.exec.ExecClient;
import io.qubiq.questdb.exec.SqlException;
import io.qubiq.questdb.exec.SqlResult;
import io.qubiq.questdb.exec.SqlText;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The historian's tables in QuestDB. Every table is
 *
 * <pre>
 * CREATE TABLE IF NOT EXISTS &lt;prefix&gt;_&lt;type&gt; (ts TIMESTAMP, tag SYMBOL, value &lt;type&gt;, quality LONG,
 *     source_ts TIMESTAMP, server_ts TIMESTAMP, gateway SYMBOL)
 *   TIMESTAMP(ts) PARTITION BY &lt;unit&gt; [TTL n &lt;unit&gt;S] WAL DEDUP UPSERT KEYS(ts, gateway, tag, value, quality)
 * </pre>
 *
 * <p>The dedup keys are what identifies a sample: the same gateway, tag, timestamp, value and quality
 * is the same sample, so replaying a row (after a crash, a write with an unknown outcome, an MQTT
 * redelivery, a repeated OPC UA notification) replaces it instead of adding a duplicate; a different
 * value or quality at the same timestamp is another sample and gets its own row; and gateways that
 * share one QuestDB keep each other's rows ({@code gateway} is each one's identity, see
 * {@link HistoryRows}). A null value (a sample without one) is a key like any other. {@code quality}
 * is the OPC UA status code as an unsigned 32-bit number in a LONG: QuestDB's INT reserves
 * 0x80000000, the code of plain Bad, as its null.
 *
 * <p>A table that already exists keeps its columns and partitioning, but each time the tables are
 * created its TTL is brought to the configured one ({@link HistoryTtl}) and a table made by an
 * earlier version gets the {@code gateway} column and the dedup keys above ({@link HistoryMigration});
 * each change is logged. Immutable.
 */
public final class HistorySchema {

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(HistorySchema.class);

    /** The dedup keys of every history table: what identifies a sample. */
    static final List<String> UPSERT_KEYS = List.of("ts", "gateway", "tag", "value", "quality");

    private final Map<ValueTable, String> names = new EnumMap<>(ValueTable.class);
    private final PartitionUnit partition;
    private final Optional<HistoryTtl> ttl;

    /** @param ttlDays days of history kept (rounded up to whole partitions); 0 for no TTL */
    public HistorySchema(String tablePrefix, PartitionUnit partition, int ttlDays) {
        for (ValueTable table : ValueTable.values()) {
            names.put(table, SqlText.identifier(tablePrefix + "_" + table.suffix()));
        }
        this.partition = partition;
        this.ttl = HistoryTtl.of(ttlDays, partition);
    }

    public static HistorySchema of(HistorianConfig config) {
        return new HistorySchema(config.tablePrefix(), config.partitionBy(), config.ttlDays());
    }

    public String table(ValueTable table) {
        return names.get(table);
    }

    public String tableFor(DataType type) {
        return names.get(ValueTable.of(type));
    }

    /** Every history table name, in {@link ValueTable} order. */
    public List<String> tables() {
        return List.copyOf(names.values());
    }

    public List<String> createStatements() {
        List<String> statements = new ArrayList<>();
        for (ValueTable table : ValueTable.values()) {
            statements.add("CREATE TABLE IF NOT EXISTS " + names.get(table) + " (ts TIMESTAMP, tag SYMBOL, value "
                    + table.sqlType() + ", quality LONG, source_ts TIMESTAMP, server_ts TIMESTAMP, gateway SYMBOL)"
                    + " TIMESTAMP(ts) PARTITION BY " + partition.sql() + ttl.map(t -> " TTL " + t.sql()).orElse("")
                    + " WAL DEDUP UPSERT KEYS(" + String.join(", ", UPSERT_KEYS) + ")");
        }
        return statements;
    }

    /** The configured retention; empty when history is kept until deleted by hand. */
    public Optional<HistoryTtl> ttl() {
        return ttl;
    }

    /**
     * Creates the tables that do not exist yet, then sets the configured TTL on every table whose TTL
     * differs (one made before a TTL was configured, or with another one), and migrates every table an
     * earlier version made ({@link HistoryMigration}), logging each change.
     *
     * @return the changes made, each as {@code name: what}: a TTL as {@code from -> to}, a migration as
     *     {@link HistoryMigration} describes it
     * @throws SqlException QuestDB is unreachable, or refused a statement
     */
    public List<String> create(ExecClient exec) throws SqlException {
        for (String statement : createStatements()) {
            exec.exec(statement);
        }
        List<String> changed = new ArrayList<>();
        SqlResult tables = exec.exec("SELECT table_name, ttlValue, ttlUnit FROM tables()");
        int nameAt = tables.indexOf("table_name");
        int valueAt = tables.indexOf("ttlValue");
        int unitAt = tables.indexOf("ttlUnit");
        for (List<Object> row : tables.rows()) {
            String table = String.valueOf(row.get(nameAt));
            if (!names.containsValue(table)) {
                continue;
            }
            int value = ((Number) row.get(valueAt)).intValue();
            Optional<HistoryTtl> current = value == 0 ? Optional.empty()
                    : Optional.of(new HistoryTtl(value, String.valueOf(row.get(unitAt))));
            if (current.equals(ttl)) {
                continue;
            }
            exec.exec("ALTER TABLE " + table + " SET TTL " + ttl.map(HistoryTtl::sql).orElse("0 DAYS"));
            String change = table + ": " + current.map(HistoryTtl::toString).orElse("none") + " -> "
                    + ttl.map(HistoryTtl::toString).orElse("none");
            log.info("History table {}: retention (TTL) changed from {} to {} as configured by historian.ttl_days",
                    table, current.map(HistoryTtl::toString).orElse("none"), ttl.map(HistoryTtl::toString).orElse("none"));
            changed.add(change);
        }
        changed.addAll(HistoryMigration.migrate(exec, tables()));
        return changed;
    }
}
