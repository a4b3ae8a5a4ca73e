package io.qubiq.historian;

import java.util.Locale;
import java.util.Optional;

/**
 * The retention of the history tables as QuestDB takes it: a whole number of partitions. QuestDB
 * drops a partition once all of it is older than the TTL and accepts only a TTL that is a multiple
 * of the partition size (calendar units for month and year partitions), so {@code ttl_days} is
 * rounded up: to whole weeks with {@code partition_by week}, to months of 30 days with {@code month},
 * to years of 365 days with {@code year}. Immutable.
 *
 * @param value how many units
 * @param unit QuestDB's unit as its {@code tables()} function reports it: DAY, WEEK, MONTH or YEAR
 */
public record HistoryTtl(int value, String unit) {

    /** The TTL for {@code days} of history in tables partitioned by {@code partition}; empty for 0 (no TTL). */
    public static Optional<HistoryTtl> of(int days, PartitionUnit partition) {
        if (days <= 0) {
            return Optional.empty();
        }
        return Optional.of(switch (partition) {
            case HOUR, DAY -> new HistoryTtl(days, "DAY");
            case WEEK -> new HistoryTtl(ceil(days, 7), "WEEK");
            case MONTH -> new HistoryTtl(ceil(days, 30), "MONTH");
            case YEAR -> new HistoryTtl(ceil(days, 365), "YEAR");
        });
    }

    private static int ceil(int days, int unitDays) {
        return (days + unitDays - 1) / unitDays;
    }

    /** As written in SQL after {@code TTL}: {@code 90 DAYS}. */
    public String sql() {
        return value + " " + unit + "S";
    }

    /** For the log: {@code 90 days}. */
    @Override
    public String toString() {
        return value + " " + unit.toLowerCase(Locale.ROOT) + (value == 1 ? "" : "s");
    }
}
