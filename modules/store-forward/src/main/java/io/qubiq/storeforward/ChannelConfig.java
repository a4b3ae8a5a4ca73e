package io.qubiq.storeforward;

import io.qubiq.buffer.Durability;
import io.qubiq.buffer.OverflowPolicy;
import io.qubiq.core.config.ConfigChecked;
import io.qubiq.core.config.Default;
import io.qubiq.core.config.Doc;
import io.qubiq.core.config.Range;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The store-and-forward settings of one outbound connection. */
@Doc("Store-and-forward for one outbound connection: its durable buffer, forwarder and quarantine.")
public record ChannelConfig(
        @Doc("Limit on buffered bytes. At the limit the overflow policy applies.")
        @Default("1073741824")
        @Range(min = 1048576, max = 1099511627776L)
        long maxBytes,

        @Doc("Size of each buffer segment file. Bounds the largest single item; the buffer may hold up to"
                + " two segments beyond max_bytes on disk.")
        @Default("16777216")
        @Range(min = 65536, max = 1073741824)
        int segmentBytes,

        @Doc("Fill level (percent of max_bytes) at which the buffer-pressure alarm is raised.")
        @Default("80")
        @Range(min = 1, max = 100)
        int highWaterPercent,

        @Doc("Fill level (percent) at or below which a raised buffer-pressure alarm clears.")
        @Default("60")
        @Range(min = 1, max = 99)
        int lowWaterPercent,

        @Doc("What happens at the limit: drop_oldest (discard the oldest items, each counted, after the"
                + " pressure alarm) or refuse (new writes fail with a clear error; the backlog is kept). Left"
                + " out, it follows the destination: drop_oldest for the historian, QuestDB and MQTT;"
                + " refuse for SQL, MongoDB and the alarm journal.")
        Optional<OverflowPolicy> overflowPolicy,

        @Doc("When buffered items reach the disk: none (page cache; survives a process crash), periodic"
                + " (fsync every fsync_interval_ms; survives power loss up to that window) or always (every"
                + " write waits for fsync; concurrent writers share one).")
        @Default("periodic")
        Durability durability,

        @Doc("Interval of the background fsync when durability is periodic.")
        @Default("1000")
        @Range(min = 10, max = 60000)
        long fsyncIntervalMs,

        @Doc("Most items the forwarder writes in one batch.")
        @Default("500")
        @Range(min = 1, max = 100000)
        int batchMaxItems,

        @Doc("Most item bytes the forwarder writes in one batch (one larger item still goes alone).")
        @Default("1048576")
        @Range(min = 1024, max = 268435456)
        long batchMaxBytes,

        @Doc("How long the forwarder waits for a batch to fill before writing a partial one.")
        @Default("20")
        @Range(min = 0, max = 60000)
        long lingerMs,

        @Doc("First wait after a transient failure; doubles on each further failure.")
        @Default("500")
        @Range(min = 1, max = 600000)
        long backoffInitialMs,

        @Doc("Longest wait between retries after transient failures.")
        @Default("30000")
        @Range(min = 1, max = 3600000)
        long backoffMaxMs,

        @Doc("Delivery attempts that ended without a verdict (a timeout after sending) before the item is"
                + " quarantined as \"outcome unknown\". Not applied to destinations that write idempotently.")
        @Default("3")
        @Range(min = 1, max = 1000)
        int maxDeliveryAttempts,

        @Doc("Limit on the quarantine's size on disk. When full, delivery for this connection stops (and an"
                + " alarm says so) until an operator retries or drops quarantined items.")
        @Default("67108864")
        @Range(min = 65536, max = 1099511627776L)
        long quarantineMaxBytes,

        @Doc("While nothing is buffered, hand batches to the forwarder in memory (one batch at most), sparing"
                + " the disk. Off: every write goes through the buffer.")
        @Default("true")
        boolean fastPath) implements ConfigChecked {

    /** The defaults; the overflow policy follows the destination. */
    public static ChannelConfig defaults() {
        return new ChannelConfig(1L << 30, 16 << 20, 80, 60, Optional.empty(), Durability.PERIODIC, 1000, 500,
                1 << 20, 20, 500, 30_000, 3, 64L << 20, true);
    }

    public OverflowPolicy overflowPolicyOr(OverflowPolicy destinationDefault) {
        return overflowPolicy.orElse(destinationDefault);
    }

    public ChannelConfig withMaxBytes(long value) {
        return new ChannelConfig(value, segmentBytes, highWaterPercent, lowWaterPercent, overflowPolicy, durability,
                fsyncIntervalMs, batchMaxItems, batchMaxBytes, lingerMs, backoffInitialMs, backoffMaxMs,
                maxDeliveryAttempts, quarantineMaxBytes, fastPath);
    }

    public ChannelConfig withSegmentBytes(int value) {
        return new ChannelConfig(maxBytes, value, highWaterPercent, lowWaterPercent, overflowPolicy, durability,
                fsyncIntervalMs, batchMaxItems, batchMaxBytes, lingerMs, backoffInitialMs, backoffMaxMs,
                maxDeliveryAttempts, quarantineMaxBytes, fastPath);
    }

    public ChannelConfig withBatch(int maxItems, long lingerMillis) {
        return new ChannelConfig(maxBytes, segmentBytes, highWaterPercent, lowWaterPercent, overflowPolicy, durability,
                fsyncIntervalMs, maxItems, batchMaxBytes, lingerMillis, backoffInitialMs, backoffMaxMs,
                maxDeliveryAttempts, quarantineMaxBytes, fastPath);
    }

    public ChannelConfig withBackoff(long initialMs, long maxMs) {
        return new ChannelConfig(maxBytes, segmentBytes, highWaterPercent, lowWaterPercent, overflowPolicy, durability,
                fsyncIntervalMs, batchMaxItems, batchMaxBytes, lingerMs, initialMs, maxMs,
                maxDeliveryAttempts, quarantineMaxBytes, fastPath);
    }

    public ChannelConfig withQuarantineMaxBytes(long value) {
        return new ChannelConfig(maxBytes, segmentBytes, highWaterPercent, lowWaterPercent, overflowPolicy, durability,
                fsyncIntervalMs, batchMaxItems, batchMaxBytes, lingerMs, backoffInitialMs, backoffMaxMs,
                maxDeliveryAttempts, value, fastPath);
    }

    public ChannelConfig withFastPath(boolean value) {
        return new ChannelConfig(maxBytes, segmentBytes, highWaterPercent, lowWaterPercent, overflowPolicy, durability,
                fsyncIntervalMs, batchMaxItems, batchMaxBytes, lingerMs, backoffInitialMs, backoffMaxMs,
                maxDeliveryAttempts, quarantineMaxBytes, value);
    }

    public ChannelConfig withDurability(Durability value) {
        return new ChannelConfig(maxBytes, segmentBytes, highWaterPercent, lowWaterPercent, overflowPolicy, value,
                fsyncIntervalMs, batchMaxItems, batchMaxBytes, lingerMs, backoffInitialMs, backoffMaxMs,
                maxDeliveryAttempts, quarantineMaxBytes, fastPath);
    }

    public ChannelConfig withWaterMarks(int highPercent, int lowPercent) {
        return new ChannelConfig(maxBytes, segmentBytes, highPercent, lowPercent, overflowPolicy, durability,
                fsyncIntervalMs, batchMaxItems, batchMaxBytes, lingerMs, backoffInitialMs, backoffMaxMs,
                maxDeliveryAttempts, quarantineMaxBytes, fastPath);
    }

    public ChannelConfig withMaxDeliveryAttempts(int value) {
        return new ChannelConfig(maxBytes, segmentBytes, highWaterPercent, lowWaterPercent, overflowPolicy, durability,
                fsyncIntervalMs, batchMaxItems, batchMaxBytes, lingerMs, backoffInitialMs, backoffMaxMs,
                value, quarantineMaxBytes, fastPath);
    }

    @Override
    public List<Violation> violations() {
        List<Violation> violations = new ArrayList<>();
        if (lowWaterPercent >= highWaterPercent) {
            violations.add(new Violation("low_water_percent", "must be below high_water_percent ("
                    + highWaterPercent + "), was " + lowWaterPercent));
        }
        if (maxBytes < segmentBytes) {
            violations.add(new Violation("max_bytes", "must be at least segment_bytes (" + segmentBytes + "), was "
                    + maxBytes));
        }
        if (segmentBytes % 4096 != 0) {
            violations.add(new Violation("segment_bytes", "must be a multiple of 4096, was " + segmentBytes));
        }
        if (backoffMaxMs < backoffInitialMs) {
            violations.add(new Violation("backoff_max_ms", "must be at least backoff_initial_ms ("
                    + backoffInitialMs + "), was " + backoffMaxMs));
        }
        return violations;
    }

    /**
     * Whether {@code other} keeps everything the open buffer and quarantine depend on (size limits,
     * segment size, water marks, overflow policy, durability, fsync interval, quarantine limit), so a
     * running channel can take it without being reopened ({@link StoreForwardChannel#replaceSink}).
     */
    public boolean sameStorage(ChannelConfig other) {
        return maxBytes == other.maxBytes && segmentBytes == other.segmentBytes
                && highWaterPercent == other.highWaterPercent && lowWaterPercent == other.lowWaterPercent
                && overflowPolicy.equals(other.overflowPolicy) && durability == other.durability
                && fsyncIntervalMs == other.fsyncIntervalMs && quarantineMaxBytes == other.quarantineMaxBytes;
    }
}
