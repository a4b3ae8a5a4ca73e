package io.qubiq.historian;

import io.qubiq.core.tag.DataType;
import io.qubiq.historian.exec.ExecClient;
import io.qubiq.historian.exec.SqlException;
import io.qubiq.historian.exec.SqlResult;
import io.qubiq.historian.exec.SqlText;
import io.qubiq.sink.questdb.QuestDbRow;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The historian's tables in QuestDB and how a sample becomes a row. Every table is
 *
 * <pre>
 * CREATE TABLE IF NOT EXISTS &lt;prefix&gt;_&lt;type&gt; (ts TIMESTAMP, tag SYMBOL, value &lt;type&gt;, quality LONG,
 *     source_ts TIMESTAMP, server_ts TIMESTAMP)
 *   TIMESTAMP(ts) PARTITION BY &lt;unit&gt; [TTL n &lt;unit&gt;S] WAL DEDUP UPSERT KEYS(ts, tag)
 * </pre>
 *
 * <p>A table that already exists keeps its columns and partitioning, but its TTL is brought to the
 * configured one ({@link HistoryTtl}) each time the tables are created, and each change is logged.
 *
 * so replaying a row (after a crash, or a write with an unknown outcome) replaces it instead of
 * adding a duplicate. {@code quality} is the OPC UA status code as an unsigned 32-bit number in a
 * LONG: QuestDB's INT reserves 0x80000000, the code of plain Bad, as its null. Immutable.
 */
public final class HistorySchema {

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(HistorySchema.class);

    private static final List<String> SYMBOLS = List.of("tag");
    private static final List<String> COLUMNS = List.of("value", "quality", "source_ts", "server_ts");
    private static final List<String> COLUMNS_WITHOUT_VALUE = COLUMNS.subList(1, COLUMNS.size());

    private final Map<ValueTable, String> names = new EnumMap<>(ValueTable.class);
    /** Row layouts by {@link DataType} ordinal: names validated once, not per row. */
    private final QuestDbRow.Layout[] withValue = new QuestDbRow.Layout[DataType.values().length];
    private final QuestDbRow.Layout[] withoutValue = new QuestDbRow.Layout[DataType.values().length];
    private final PartitionUnit partition;
    private final Optional<HistoryTtl> ttl;

    /** @param ttlDays days of history kept (rounded up to whole partitions); 0 for no TTL */
    public HistorySchema(String tablePrefix, PartitionUnit partition, int ttlDays) {
        for (ValueTable table : ValueTable.values()) {
            names.put(table, SqlText.identifier(tablePrefix + "_" + table.suffix()));
        }
        for (DataType type : DataType.values()) {
            String table = names.get(ValueTable.of(type));
            withValue[type.ordinal()] = QuestDbRow.Layout.of(table, SYMBOLS, COLUMNS);
            withoutValue[type.ordinal()] = QuestDbRow.Layout.of(table, SYMBOLS, COLUMNS_WITHOUT_VALUE);
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
                    + table.sqlType() + ", quality LONG, source_ts TIMESTAMP, server_ts TIMESTAMP) TIMESTAMP(ts)"
                    + " PARTITION BY " + partition.sql() + ttl.map(t -> " TTL " + t.sql()).orElse("")
                    + " WAL DEDUP UPSERT KEYS(ts, tag)");
        }
        return statements;
    }

    /** The configured retention; empty when history is kept until deleted by hand. */
    public Optional<HistoryTtl> ttl() {
        return ttl;
    }

    /**
     * Creates the tables that do not exist yet, then sets the configured TTL on every table whose TTL
     * differs (one made before a TTL was configured, or with another one), logging each change.
     *
     * @return the tables whose TTL was changed, each as {@code name: from -> to}
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
        return changed;
    }

    /**
     * The row that stores {@code sample}: symbol {@code tag}, columns {@code value} (absent for a
     * sample without a value), {@code quality}, {@code source_ts} and {@code server_ts}.
     */
    public QuestDbRow row(HistorySample sample) {
        int type = sample.type().ordinal();
        Long quality = Integer.toUnsignedLong(sample.quality().code());
        if (sample.value() != null) {
            return withValue[type].rowOwning(sample.ts(),
                    new Object[] {sample.tag().value(), sample.value(), quality, sample.sourceTs(), sample.serverTs()});
        }
        return withoutValue[type].rowOwning(sample.ts(),
                new Object[] {sample.tag().value(), quality, sample.sourceTs(), sample.serverTs()});
    }
}
