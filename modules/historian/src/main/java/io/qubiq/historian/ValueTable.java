package io.qubiq.historian;

import io.qubiq.core.tag.DataType;
import java.time.Instant;

/**
 * The history table of each value type and its {@code value} column: one table per QuestDB column
 * type, so every value keeps a native, indexable type. INT32 and INT64 share the LONG table,
 * FLOAT32 and FLOAT64 the DOUBLE table (a FLOAT32 is widened exactly).
 */
public enum ValueTable {
    DOUBLE("double", "DOUBLE"),
    LONG("long", "LONG"),
    BOOL("bool", "BOOLEAN"),
    STRING("string", "VARCHAR"),
    TIME("time", "TIMESTAMP");

    private final String suffix;
    private final String sqlType;

    ValueTable(String suffix, String sqlType) {
        this.suffix = suffix;
        this.sqlType = sqlType;
    }

    public static ValueTable of(DataType type) {
        return switch (type) {
            case BOOLEAN -> BOOL;
            case INT32, INT64 -> LONG;
            case FLOAT32, FLOAT64 -> DOUBLE;
            case STRING -> STRING;
            case DATETIME -> TIME;
        };
    }

    public String suffix() {
        return suffix;
    }

    public String sqlType() {
        return sqlType;
    }

    public boolean numeric() {
        return this == DOUBLE || this == LONG;
    }

    /** A tag value as this table returns it: Integer widened to Long, Float to Double. */
    public Object normalize(Object value) {
        if (value instanceof Integer i) {
            return i.longValue();
        }
        if (value instanceof Float f) {
            return f.doubleValue();
        }
        return value;
    }

    /** A value from {@code /exec} JSON as the Java type of this table. */
    public Object fromJson(Object json) {
        if (json == null) {
            return null;
        }
        return switch (this) {
            case DOUBLE -> ((Number) json).doubleValue();
            case LONG -> ((Number) json).longValue();
            case BOOL -> (Boolean) json;
            case STRING -> json.toString();
            case TIME -> Instant.parse(json.toString());
        };
    }
}
