package io.qubiq.historian.query;

import io.qubiq.core.tag.Quality;
import java.time.Instant;

/**
 * One point of a history series. For raw samples: the stored timestamp, the value (Double, Long,
 * Boolean, String or Instant; null for a sample without a value) and its quality. For aggregates:
 * the start of the interval, the aggregate (Double for avg, Long for count, the column's type
 * otherwise) and the worst quality code seen in the interval.
 */
public record Point(Instant ts, Object value, Quality quality) {
}
