package io.qubiq.historian;

/** How QuestDB splits a history table into partitions (its {@code PARTITION BY} unit). */
public enum PartitionUnit {
    HOUR(1),
    DAY(24),
    WEEK(24 * 7),
    MONTH(0),
    YEAR(0);

    private final int hours;

    PartitionUnit(int hours) {
        this.hours = hours;
    }

    /** The fixed length in hours, or 0 for calendar units whose length varies. */
    int hours() {
        return hours;
    }

    String sql() {
        return name();
    }
}
