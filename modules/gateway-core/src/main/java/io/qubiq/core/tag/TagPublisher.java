package io.qubiq.core.tag;

import java.util.Collection;

/**
 * Where connectors hand their tag values: the tag bus implements it. Publishing never blocks on a
 * slow subscriber; each subscriber's overflow is handled and counted by the bus.
 * Safe to call from any thread.
 */
public interface TagPublisher {

    void publish(TagValue value);

    /**
     * Publishes a value of a message whose source waits for custody before acknowledging (see {@link
     * CustodyReceipt}): every subscriber that keeps data durably takes a share of {@code receipt}. A
     * publisher with no such subscribers (this default) takes none, so the receipt completes as soon
     * as the source is done.
     */
    default void publish(TagValue value, CustodyReceipt receipt) {
        publish(value);
    }

    default void publishAll(Collection<TagValue> values) {
        for (TagValue value : values) {
            publish(value);
        }
    }
}
