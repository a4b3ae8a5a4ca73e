package io.qubiq.storeforward;

import io.qubiq.core.health.ConnectionState;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * One channel at one moment, for the console's Settings → Store &amp; Forward view and for metrics.
 * Counters are totals since the gateway started; buffer figures are current. Item counts are exact;
 * the byte rates count buffered items at their encoded size and items written on the fast path
 * (never encoded) at an estimate from a sample of them (see {@code FastPathBytes}). The high- and
 * low-water marks are the configured fill percentages at which the pressure alarm is raised and cleared.
 */
public record ChannelStatus(
        String connection,
        ChannelState state,
        ConnectionState destination,
        long bufferedBytes,
        long bufferedItems,
        long maxBytes,
        double fillPercent,
        int highWaterPercent,
        int lowWaterPercent,
        Optional<Duration> oldestItemAge,
        double inBytesPerSecond,
        double outBytesPerSecond,
        long itemsIn,
        long itemsDelivered,
        long itemsDropped,
        long itemsQuarantined,
        long deliveryAttempts,
        int quarantineItems,
        long quarantineBytes,
        boolean pressureAlarm,
        Optional<String> lastError,
        Optional<Instant> lastErrorAt) {
}
