package io.qubiq.core.tag;

import java.time.Instant;

/**
 * The data type of a tag value and the Java type that carries it. Connectors convert device types
 * to one of these; sinks map them to destination types (QuestDB column types, SQL types, BSON).
 */
public enum DataType {
    BOOLEAN(Boolean.class),
    INT32(Integer.class),
    INT64(Long.class),
    FLOAT32(Float.class),
    FLOAT64(Double.class),
    STRING(String.class),
    DATETIME(Instant.class);

    private final Class<?> javaType;

    DataType(Class<?> javaType) {
        this.javaType = javaType;
    }

    public Class<?> javaType() {
        return javaType;
    }

    public boolean isNumeric() {
        return this == INT32 || this == INT64 || this == FLOAT32 || this == FLOAT64;
    }

    /** The type whose Java carrier is exactly {@code value}'s class. */
    public static DataType of(Object value) {
        if (value == null) {
            throw new IllegalArgumentException("a null value has no data type; give the type explicitly"
                    + " (TagValue.withoutValue)");
        }
        for (DataType type : values()) {
            if (type.javaType.isInstance(value)) {
                return type;
            }
        }
        throw new IllegalArgumentException("no tag data type carries a " + value.getClass().getName()
                + " (use Boolean, Integer, Long, Float, Double, String or Instant)");
    }
}
