package io.qubiq.historian;

import io.qubiq.core.config.ConfigChecked;
import io.qubiq.core.config.Default;
import io.qubiq.core.config.Doc;
import io.qubiq.core.config.Range;
import io.qubiq.historian.wal.WalSupervisorConfig;
import io.qubiq.questdb.exec.SqlText;
import io.qubiq.storeforward.ChannelConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The historian: which QuestDB tables it writes, how it batches, what it stores of each tag, how it
 * answers history queries and how it supervises QuestDB's write-ahead log. The QuestDB address is
 * the historian connection's sink section ({@code QuestDbSinkConfig}), not part of this record.
 */
@Doc("Tag history in QuestDB: tables, batching, storage rules, queries and WAL supervision.")
public record HistorianConfig(
        @Doc("Start of the table names. One table per value type: <prefix>_double (FLOAT32, FLOAT64),"
                + " <prefix>_long (INT32, INT64), <prefix>_bool, <prefix>_string and <prefix>_time (DATETIME).")
        @Default("qubiq_history")
        String tablePrefix,

        @Doc("Partition unit of every history table: hour, day, week, month or year.")
        @Default("day")
        PartitionUnit partitionBy,

        @Doc("Retention in days: QuestDB drops a partition of a history table once all of it is older than"
                + " this. Rounded up to whole partitions: to weeks with partition_by week, to months (30 days) with"
                + " month, to years (365 days) with year. 0 keeps history until deleted by hand. Applied to"
                + " existing tables too, at each start (the log names each table whose TTL changed).")
        @Default("90")
        @Range(min = 0, max = 36500)
        int ttlDays,

        @Doc("Most rows the historian hands to its store-and-forward channel at once.")
        @Default("1000")
        @Range(min = 1, max = 100000)
        int batchMaxRows,

        @Doc("Longest a stored sample waits for its batch to fill before the batch is handed on.")
        @Default("100")
        @Range(min = 0, max = 60000)
        long lingerMs,

        @Doc("Capacity of the historian's tag-bus queue. When it is full the oldest queued value is dropped"
                + " and counted.")
        @Default("100000")
        @Range(min = 1, max = 10000000)
        int queueCapacityValues,

        @Doc("Samples per tag kept in memory and merged into history queries, so trends are live although"
                + " storage is batched. 0 turns the live tail off.")
        @Default("1000")
        @Range(min = 0, max = 1000000)
        int liveTailSamplesPerTag,

        @Doc("Most samples the live tail keeps for all tags together, about 32 bytes each. Once they are"
                + " reached, no tag's tail grows further: each keeps its newest samples in the room it has."
                + " A tag seen for the first time still gets room for 16.")
        @Default("1000000")
        @Range(min = 1, max = 1000000000)
        long liveTailMaxSamples,

        @Doc("Most points one history query may return (raw samples or aggregate buckets, all tags together)."
                + " A larger result is refused with an error that says how to narrow the query.")
        @Default("100000")
        @Range(min = 1, max = 10000000)
        int maxResultRows,

        @Doc("How long one SQL statement to QuestDB (table creation, query, WAL check) may take.")
        @Default("30000")
        @Range(min = 100, max = 600000)
        long queryTimeoutMs,

        @Doc("Store-and-forward for the historian's QuestDB connection. overflow_policy defaults to"
                + " drop_oldest here.")
        ChannelConfig storeAndForward,

        @Doc("WAL supervision.")
        WalSupervisorConfig wal,

        @Doc("Storage for tags no rule matches. Its tags key must stay **.")
        StorageRule defaultRule,

        @Doc("Storage rules, tried in order; the first whose pattern matches a tag applies to it.")
        @Default("[]")
        List<StorageRule> rules) implements ConfigChecked {

    public HistorianConfig {
        rules = List.copyOf(rules);
    }

    /** The defaults of every key. */
    public static HistorianConfig defaults() {
        return new HistorianConfig("qubiq_history", PartitionUnit.DAY, 90, 1000, 100, 100_000, 1000,
                1_000_000, 100_000, 30_000, ChannelConfig.defaults(), WalSupervisorConfig.defaults(), StorageRule.defaults(),
                List.of());
    }

    public HistorianConfig withTablePrefix(String value) {
        return new HistorianConfig(value, partitionBy, ttlDays, batchMaxRows, lingerMs, queueCapacityValues,
                liveTailSamplesPerTag, liveTailMaxSamples, maxResultRows, queryTimeoutMs, storeAndForward, wal, defaultRule, rules);
    }

    public HistorianConfig withRetention(PartitionUnit partition, int days) {
        return new HistorianConfig(tablePrefix, partition, days, batchMaxRows, lingerMs, queueCapacityValues,
                liveTailSamplesPerTag, liveTailMaxSamples, maxResultRows, queryTimeoutMs, storeAndForward, wal, defaultRule, rules);
    }

    public HistorianConfig withBatching(int maxRows, long linger) {
        return new HistorianConfig(tablePrefix, partitionBy, ttlDays, maxRows, linger, queueCapacityValues,
                liveTailSamplesPerTag, liveTailMaxSamples, maxResultRows, queryTimeoutMs, storeAndForward, wal, defaultRule, rules);
    }

    public HistorianConfig withLiveTailSamplesPerTag(int value) {
        return new HistorianConfig(tablePrefix, partitionBy, ttlDays, batchMaxRows, lingerMs, queueCapacityValues,
                value, liveTailMaxSamples, maxResultRows, queryTimeoutMs, storeAndForward, wal, defaultRule, rules);
    }

    public HistorianConfig withLiveTailMaxSamples(long value) {
        return new HistorianConfig(tablePrefix, partitionBy, ttlDays, batchMaxRows, lingerMs, queueCapacityValues,
                liveTailSamplesPerTag, value, maxResultRows, queryTimeoutMs, storeAndForward, wal, defaultRule, rules);
    }

    public HistorianConfig withMaxResultRows(int value) {
        return new HistorianConfig(tablePrefix, partitionBy, ttlDays, batchMaxRows, lingerMs, queueCapacityValues,
                liveTailSamplesPerTag, liveTailMaxSamples, value, queryTimeoutMs, storeAndForward, wal, defaultRule, rules);
    }

    public HistorianConfig withStoreAndForward(ChannelConfig value) {
        return new HistorianConfig(tablePrefix, partitionBy, ttlDays, batchMaxRows, lingerMs, queueCapacityValues,
                liveTailSamplesPerTag, liveTailMaxSamples, maxResultRows, queryTimeoutMs, value, wal, defaultRule, rules);
    }

    public HistorianConfig withWal(WalSupervisorConfig value) {
        return new HistorianConfig(tablePrefix, partitionBy, ttlDays, batchMaxRows, lingerMs, queueCapacityValues,
                liveTailSamplesPerTag, liveTailMaxSamples, maxResultRows, queryTimeoutMs, storeAndForward, value, defaultRule, rules);
    }

    public HistorianConfig withRules(StorageRule defaults, List<StorageRule> value) {
        return new HistorianConfig(tablePrefix, partitionBy, ttlDays, batchMaxRows, lingerMs, queueCapacityValues,
                liveTailSamplesPerTag, liveTailMaxSamples, maxResultRows, queryTimeoutMs, storeAndForward, wal, defaults, value);
    }

    @Override
    public List<Violation> violations() {
        List<Violation> violations = new ArrayList<>();
        String longest = tablePrefix + "_double";
        if (!SqlText.isIdentifier(longest)) {
            violations.add(new Violation("table_prefix", "must be letters, digits and _ (not starting with a"
                    + " digit), at most 119 characters, was \"" + tablePrefix + "\""));
        }
        if (!defaultRule.tags().equals("**")) {
            violations.add(new Violation("default_rule.tags", "the default rule applies to every tag no rule"
                    + " matches; leave tags out or write **, was \"" + defaultRule.tags() + "\""));
        }
        return violations;
    }
}
