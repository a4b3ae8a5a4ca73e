package io.qubiq.sink.mqtt;

import java.util.BitSet;
import java.util.List;

/**
 * Which messages of the last failed batch the broker acknowledged, so that the channel's replay of
 * that same batch does not publish them a second time. A lost connection or a missing
 * acknowledgement fails the whole batch (transient or unknown outcome) and the channel writes it
 * again from its head; MQTT brokers acknowledge QoS 1 in order, so without this every message
 * acknowledged before the failure would reach subscribers twice.
 *
 * <p>The memory is taken by the next write only, and only if that batch starts with the same
 * messages (compared by content: topic, payload, QoS, retain) as far as both go; anything else
 * forgets it. Messages whose acknowledgement was lost with the connection are not known to be
 * acknowledged and are published again: MQTT QoS 1 is at least once.
 *
 * <p>Owned by the sink's writing thread.
 */
final class AcknowledgedMessages {

    private List<MqttMessage> batch = List.of();
    private BitSet acknowledged = new BitSet();

    /** Remembers {@code acknowledged} (indexes into {@code failedBatch}) for the next write. */
    void remember(List<MqttMessage> failedBatch, BitSet acknowledgedIndexes) {
        if (acknowledgedIndexes.isEmpty()) {
            forget();
            return;
        }
        batch = List.copyOf(failedBatch);
        acknowledged = (BitSet) acknowledgedIndexes.clone();
    }

    /**
     * The indexes of {@code next} that the broker already acknowledged in the previous attempt of the
     * same batch (empty when {@code next} is another batch). Forgets the memory either way.
     */
    BitSet take(List<MqttMessage> next) {
        if (batch.isEmpty()) {
            return new BitSet();
        }
        List<MqttMessage> previous = batch;
        BitSet known = acknowledged;
        forget();
        int common = Math.min(previous.size(), next.size());
        for (int i = 0; i < common; i++) {
            if (!previous.get(i).equals(next.get(i))) {
                return new BitSet();
            }
        }
        return known.get(0, common);
    }

    void forget() {
        batch = List.of();
        acknowledged = new BitSet();
    }
}
