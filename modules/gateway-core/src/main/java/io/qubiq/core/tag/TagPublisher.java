package io.qubiq.core.tag;

import java.util.Collection;

/**
 * Where connectors hand their tag values: the tag bus implements it. Publishing never blocks on a
 * slow subscriber; each subscriber's overflow is handled and counted by the bus.
 * Safe to call from any thread.
 */
public interface TagPublisher {

    void publish(TagValue value);

    default void publishAll(Collection<TagValue> values) {
        for (TagValue value : values) {
            publish(value);
        }
    }
}
