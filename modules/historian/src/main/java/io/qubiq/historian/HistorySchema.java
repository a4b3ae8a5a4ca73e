package io.qubiq.historian;

import io.qubiq.core.tag.DataType;
import io.qubiq.historian.exec.ExecClient;
import io.qubiq.historian.exec.SqlException;
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
 *   TIMESTAMP(ts) PARTITION BY &lt;unit&gt; [TTL n DAYS] WAL DEDUP UPSERT KEYS(ts, tag)
 * </pre>
 *
 * so replaying a row (after a crash, or a write with an unknown outcome) replaces it instead of
 * adding a duplicate. {@code quality} is the OPC UA status code as an unsigned 32-bit number in a
 * LONG: QuestDB's INT reserves 0x80000000, the code of plain Bad, as its null. Immutable.
 */
public final class HistorySchema {

    private static final List<String> SYMBOLS = List.of("tag");
    private static final List<String> COLUMNS = List.of("value", "quality", "source_ts", "server_ts");
    private static final List<String> COLUMNS_WITHOUT_VALUE = COLUMNS.subList(1, COLUMNS.size());

    private final Map<ValueTable, String> names = new EnumMap<>(ValueTable.class);
    /** Row layouts by {@link DataType} ordinal: names validated once, not per row. */
    private final QuestDbRow.Layout[] withValue = new QuestDbRow.Layout[DataType.values().length];
    private final QuestDbRow.Layout[] withoutValue = new QuestDbRow.Layout[DataType.values().length];
    private final PartitionUnit partition;
    private final Optional<Integer> ttlDays;

    public HistorySchema(String tablePrefix, PartitionUnit partition, Optional<Integer> ttlDays) {
        for (ValueTable table : ValueTable.values()) {
            names.put(table, SqlText.identifier(tablePrefix + "_" + table.suffix()));
        }
        for (DataType type : DataType.values()) {
            String table = names.get(ValueTable.of(type));
            withValue[type.ordinal()] = QuestDbRow.Layout.of(table, SYMBOLS, COLUMNS);
            withoutValue[type.ordinal()] = QuestDbRow.Layout.of(table, SYMBOLS, COLUMNS_WITHOUT_VALUE);
        }
        this.partition = partition;
        this.ttlDays = ttlDays;
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
                    + " PARTITION BY " + partition.sql() + ttlDays.map(days -> " TTL " + days + " DAYS").orElse("")
                    + " WAL DEDUP UPSERT KEYS(ts, tag)");
        }
        return statements;
    }

    /**
     * Creates the tables that do not exist yet. An existing table is left as it is.
     *
     * @throws SqlException QuestDB is unreachable, or refused a statement
     */
    public void create(ExecClient exec) throws SqlException {
        for (String statement : createStatements()) {
            exec.exec(statement);
        }
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
