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
 *
 * <p>{@code itemsDropped} counts what a drop-oldest buffer discarded at its limit, {@code itemsRefused}
 * what a buffer with the refuse policy turned away at its limit (both lost, both in the loss ledger);
 * {@code refusing} is true from a refusal until the buffer takes items again or falls to its
 * low-water mark, while the items-refused alarm is raised.
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
        long itemsRefused,
        long itemsQuarantined,
        long deliveryAttempts,
        int quarantineItems,
        long quarantineBytes,
        boolean pressureAlarm,
        boolean refusing,
        Optional<String> lastError,
        Optional<Instant> lastErrorAt,
        String overflowPolicy) {

    /** Without the overflow policy in force ({@code ""}): for callers that have none, such as tests. */
    public ChannelStatus(String connection, ChannelState state, ConnectionState destination, long bufferedBytes,
                         long bufferedItems, long maxBytes, double fillPercent, int highWaterPercent,
                         int lowWaterPercent, Optional<Duration> oldestItemAge, double inBytesPerSecond,
                         double outBytesPerSecond, long itemsIn, long itemsDelivered, long itemsDropped,
                         long itemsRefused, long itemsQuarantined, long deliveryAttempts, int quarantineItems,
                         long quarantineBytes, boolean pressureAlarm, boolean refusing, Optional<String> lastError,
                         Optional<Instant> lastErrorAt) {
        this(connection, state, destination, bufferedBytes, bufferedItems, maxBytes, fillPercent, highWaterPercent,
                lowWaterPercent, oldestItemAge, inBytesPerSecond, outBytesPerSecond, itemsIn, itemsDelivered,
                itemsDropped, itemsRefused, itemsQuarantined, deliveryAttempts, quarantineItems, quarantineBytes,
                pressureAlarm, refusing, lastError, lastErrorAt, "");
    }

    /** Without the refusal figures (no refusals, not refusing): for callers that have none, such as tests. */
    public ChannelStatus(String connection, ChannelState state, ConnectionState destination, long bufferedBytes,
                         long bufferedItems, long maxBytes, double fillPercent, int highWaterPercent,
                         int lowWaterPercent, Optional<Duration> oldestItemAge, double inBytesPerSecond,
                         double outBytesPerSecond, long itemsIn, long itemsDelivered, long itemsDropped,
                         long itemsQuarantined, long deliveryAttempts, int quarantineItems, long quarantineBytes,
                         boolean pressureAlarm, Optional<String> lastError, Optional<Instant> lastErrorAt) {
        this(connection, state, destination, bufferedBytes, bufferedItems, maxBytes, fillPercent, highWaterPercent,
                lowWaterPercent, oldestItemAge, inBytesPerSecond, outBytesPerSecond, itemsIn, itemsDelivered,
                itemsDropped, 0, itemsQuarantined, deliveryAttempts, quarantineItems, quarantineBytes, pressureAlarm,
                false, lastError, lastErrorAt, "");
    }
}
