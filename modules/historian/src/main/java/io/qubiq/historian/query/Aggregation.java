package io.qubiq.historian.query;

import java.util.Locale;
import java.util.Optional;

/** What one interval of an aggregate query reduces its samples to (QuestDB's SAMPLE BY function). */
public enum Aggregation {
    AVG("avg(value)"),
    MIN("min(value)"),
    MAX("max(value)"),
    FIRST("first(value)"),
    LAST("last(value)"),
    COUNT("count()");

    private final String sql;

    Aggregation(String sql) {
        this.sql = sql;
    }

    String sql() {
        return sql;
    }

    /** The aggregation named {@code text} (case-insensitive), such as {@code avg}. */
    public static Optional<Aggregation> parse(String text) {
        for (Aggregation a : values()) {
            if (a.name().equalsIgnoreCase(text.trim())) {
                return Optional.of(a);
            }
        }
        return Optional.empty();
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
