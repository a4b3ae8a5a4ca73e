package io.qubiq.storeforward;

import static org.assertj.core.api.Assertions.assertThat;

import io.qubiq.core.error.PermanentException;
import io.qubiq.core.sink.ItemCodec;
import io.qubiq.testkit.TextCodec;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The fast path's byte count: sampled sizes times the item count, never an exception. */
class FastPathBytesTest {

    @Test
    void batchesOfEqualItemsCountTheirExactSize() {
        FastPathBytes<String> bytes = new FastPathBytes<>(new TextCodec());

        assertThat(bytes.estimate(Collections.nCopies(10, "ten bytes!"))).isEqualTo(100);
        assertThat(bytes.estimate(Collections.nCopies(1000, "ten bytes!"))).isEqualTo(10_000);
    }

    @Test
    void singleItemBatchesAreSampledOnceInSixtyFourItems() {
        List<String> encoded = new ArrayList<>();
        FastPathBytes<String> bytes = new FastPathBytes<>(recording(encoded));

        for (int i = 0; i < 3 * FastPathBytes.SAMPLE_EVERY; i++) {
            bytes.estimate(List.of("item" + i));
        }

        assertThat(encoded).containsExactly("item0", "item64", "item128");
    }

    @Test
    void estimateFollowsItemsThatGrow() {
        FastPathBytes<String> bytes = new FastPathBytes<>(new TextCodec());
        bytes.estimate(Collections.nCopies(64, "x"));

        for (int i = 0; i < 50; i++) {
            bytes.estimate(Collections.nCopies(64, "x".repeat(100)));
        }

        assertThat(bytes.estimate(Collections.nCopies(64, "x".repeat(100)))).isBetween(6300L, 6400L);
    }

    @Test
    void aCodecThatFailsOnlyLosesTheSample() {
        ItemCodec<String> failing = new ItemCodec<>() {
            @Override
            public byte[] encode(String item) {
                throw new IllegalStateException("codec bug");
            }

            @Override
            public String decode(byte[] bytes) throws PermanentException {
                throw new PermanentException("no", null);
            }

            @Override
            public String preview(String item) {
                return item;
            }
        };

        assertThat(new FastPathBytes<>(failing).estimate(List.of("a", "b"))).isZero();
    }

    private static ItemCodec<String> recording(List<String> encoded) {
        TextCodec text = new TextCodec();
        return new ItemCodec<>() {
            @Override
            public byte[] encode(String item) {
                encoded.add(item);
                return text.encode(item);
            }

            @Override
            public String decode(byte[] bytes) throws PermanentException {
                return text.decode(bytes);
            }

            @Override
            public String preview(String item) {
                return item;
            }
        };
    }
}
