package io.qubiq.core.tag;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * One observation of one tag, immutable. {@code value} is carried by the Java type of {@code type}
 * (see {@link DataType#javaType()}), or is null when the source delivered no usable value, which
 * is only allowed with a non-good quality. {@code sourceTime} is when the device sampled the value;
 * {@code serverTime} is when the server (or, for sources without one, the gateway) received it.
 */
public record TagValue(TagPath path, Object value, DataType type, Quality quality, Instant sourceTime,
                       Instant serverTime) {

    public TagValue {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(quality, "quality");
        Objects.requireNonNull(sourceTime, "sourceTime");
        Objects.requireNonNull(serverTime, "serverTime");
        if (value == null && quality.isGood()) {
            throw new IllegalArgumentException("tag " + path + ": a null value cannot have good quality");
        }
        if (value != null && !type.javaType().isInstance(value)) {
            throw new IllegalArgumentException("tag " + path + ": type " + type + " is carried by "
                    + type.javaType().getSimpleName() + ", got " + value.getClass().getSimpleName());
        }
    }

    /** A good value sampled and received at {@code time}; the type is inferred from the value. */
    public static TagValue good(TagPath path, Object value, Instant time) {
        return new TagValue(path, value, DataType.of(value), Quality.GOOD, time, time);
    }

    /** A value-less observation with a bad or uncertain quality, such as "not connected". */
    public static TagValue withoutValue(TagPath path, DataType type, Quality quality, Instant time) {
        return new TagValue(path, null, type, quality, time, time);
    }

    public Optional<Object> valueIfPresent() {
        return Optional.ofNullable(value);
    }

    /** The numeric value as a double, for deadbands, scaling and charts. */
    public Optional<Double> asDouble() {
        if (value instanceof Number number) {
            return Optional.of(number.doubleValue());
        }
        if (value instanceof Boolean bool) {
            return Optional.of(bool ? 1.0 : 0.0);
        }
        return Optional.empty();
    }

    public TagValue withQuality(Quality newQuality, Instant time) {
        return new TagValue(path, value, type, newQuality, sourceTime, time);
    }
}
