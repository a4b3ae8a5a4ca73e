package io.qubiq.sink.mqtt;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.junit.jupiter.api.Test;

class AcknowledgedMessagesTest {

    private final AcknowledgedMessages memory = new AcknowledgedMessages();

    private static List<MqttMessage> batch(int from, int count) {
        List<MqttMessage> batch = new ArrayList<>();
        for (int i = from; i < from + count; i++) {
            batch.add(MqttMessage.of("t", Integer.toString(i), 1, false));
        }
        return batch;
    }

    private static BitSet bits(int... indexes) {
        BitSet bits = new BitSet();
        for (int index : indexes) {
            bits.set(index);
        }
        return bits;
    }

    @Test
    void theReplayOfTheSameBatchSkipsWhatWasAcknowledgedOnce() {
        memory.remember(batch(0, 5), bits(0, 1, 2));

        assertThat(memory.take(batch(0, 5))).isEqualTo(bits(0, 1, 2));
        assertThat(memory.take(batch(0, 5))).as("taken once").isEqualTo(new BitSet());
    }

    @Test
    void aLongerReplayStartingWithTheSameMessagesSkipsTheSame() {
        memory.remember(batch(0, 5), bits(0, 1));

        assertThat(memory.take(batch(0, 50))).isEqualTo(bits(0, 1));
    }

    @Test
    void aShorterReplayOfTheSameHeadSkipsOnlyWhatItHolds() {
        memory.remember(batch(0, 10), bits(0, 1, 2, 3, 8));

        assertThat(memory.take(batch(0, 4))).isEqualTo(bits(0, 1, 2, 3));
    }

    @Test
    void anotherBatchForgetsTheMemory() {
        memory.remember(batch(0, 5), bits(0, 1));

        assertThat(memory.take(batch(1, 5))).as("the head moved (dropped or delivered elsewhere)").isEqualTo(new BitSet());
        assertThat(memory.take(batch(0, 5))).isEqualTo(new BitSet());
    }

    @Test
    void aMessageThatDiffersInAnyPartIsAnotherBatch() {
        memory.remember(List.of(MqttMessage.of("t", "1", 1, false)), bits(0));

        assertThat(memory.take(List.of(MqttMessage.of("t", "1", 2, false)))).isEqualTo(new BitSet());
    }

    @Test
    void nothingAcknowledgedIsNothingToRemember() {
        memory.remember(batch(0, 3), new BitSet());

        assertThat(memory.take(batch(0, 3))).isEqualTo(new BitSet());
    }
}
