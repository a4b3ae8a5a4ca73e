package io.qubiq.historian;

import io.qubiq.core.tag.DataType;
import io.qubiq.core.tag.Quality;
import io.qubiq.core.tag.TagPath;
import io.qubiq.core.tag.TagValue;
import java.time.Instant;
import java.util.Objects;

/**
 * One sample the historian stores: a tag value with the time it is stored under. {@code ts} is the
 * row's designated timestamp: the value's source time, or for a heartbeat the time the heartbeat
 * was made. {@code sourceTs} and {@code serverTs} are the value's own timestamps. {@code value} is
 * null only for a sample without a usable value (a non-good quality). Immutable.
 */
public record HistorySample(TagPath tag, DataType type, Object value, Quality quality, Instant ts, Instant sourceTs,
                            Instant serverTs) {

    public HistorySample {
        Objects.requireNonNull(tag, "tag");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(quality, "quality");
        Objects.requireNonNull(ts, "ts");
        Objects.requireNonNull(sourceTs, "sourceTs");
        Objects.requireNonNull(serverTs, "serverTs");
    }

    /** The sample of {@code value}, stored under its source time. */
    public static HistorySample of(TagValue value) {
        return new HistorySample(value.path(), value.type(), value.value(), value.quality(), value.sourceTime(),
                value.sourceTime(), value.serverTime());
    }

    /** This sample stored again at {@code time}: a heartbeat of a quiet tag. */
    public HistorySample at(Instant time) {
        return new HistorySample(tag, type, value, quality, time, sourceTs, serverTs);
    }

    /** The numeric value as a double, for deadbands; empty for non-numeric or missing values. */
    Double numeric() {
        return type.isNumeric() && value instanceof Number n ? n.doubleValue() : null;
    }
}
