package io.qubiq.tagbus;

import io.qubiq.core.tag.TagValue;

import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * What a subscriber asks of the tag bus: its unique {@code name} (used in logs, stats and the
 * delivery thread's name {@code tagbus-<name>}), a queue of {@code capacityValues} values, the
 * {@code overflowPolicy} applied when that queue is full, the {@code filter} choosing its tags, and
 * the {@code consumer} that receives batches of at most {@code maxBatchValues} values.
 *
 * <p>The consumer is called on the subscriber's own delivery thread, one batch at a time, never
 * concurrently with itself. It receives an immutable list it may keep. If it throws, the batch is
 * counted as failed and delivery continues with the next batch; it should honour interruption,
 * which is how the bus stops it. A consumer that keeps data durably is a {@link CustodialConsumer}:
 * it also receives the custody of each batch, which holds the acknowledgement of the MQTT messages
 * the values came from until it is released.
 */
public record SubscriptionSpec(String name, int capacityValues, OverflowPolicy overflowPolicy,
                               int maxBatchValues, TagFilter filter, Consumer<List<TagValue>> consumer) {

    /** The batch size when none is given: large enough for the historian, small enough for latency. */
    public static final int DEFAULT_MAX_BATCH_VALUES = 256;

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]+");

    public SubscriptionSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(overflowPolicy, "overflowPolicy");
        Objects.requireNonNull(filter, "filter");
        Objects.requireNonNull(consumer, "consumer");
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("subscriber name \"" + name
                    + "\" must be non-empty and hold only letters, digits and . _ -");
        }
        if (capacityValues < 1) {
            throw new IllegalArgumentException("subscriber " + name + ": capacityValues must be at least 1, got "
                    + capacityValues);
        }
        if (maxBatchValues < 1) {
            throw new IllegalArgumentException("subscriber " + name + ": maxBatchValues must be at least 1, got "
                    + maxBatchValues);
        }
    }

    /** Every tag, in batches of up to {@link #DEFAULT_MAX_BATCH_VALUES} values. */
    public static SubscriptionSpec of(String name, int capacityValues, OverflowPolicy overflowPolicy,
                                      Consumer<List<TagValue>> consumer) {
        return new SubscriptionSpec(name, capacityValues, overflowPolicy, DEFAULT_MAX_BATCH_VALUES,
                TagFilter.all(), consumer);
    }

    /**
     * Every tag, one value per call: for consumers that handle values singly (a live view). A
     * throwing consumer then fails exactly one value.
     */
    public static SubscriptionSpec perValue(String name, int capacityValues, OverflowPolicy overflowPolicy,
                                            Consumer<TagValue> consumer) {
        Objects.requireNonNull(consumer, "consumer");
        return new SubscriptionSpec(name, capacityValues, overflowPolicy, 1, TagFilter.all(),
                values -> values.forEach(consumer));
    }

    public SubscriptionSpec withFilter(TagFilter newFilter) {
        return new SubscriptionSpec(name, capacityValues, overflowPolicy, maxBatchValues, newFilter, consumer);
    }

    public SubscriptionSpec withMaxBatchValues(int newMaxBatchValues) {
        return new SubscriptionSpec(name, capacityValues, overflowPolicy, newMaxBatchValues, filter, consumer);
    }
}
