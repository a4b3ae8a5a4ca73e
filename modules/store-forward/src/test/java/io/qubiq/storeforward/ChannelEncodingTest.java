package io.qubiq.storeforward;

import static io.qubiq.storeforward.ChannelFixture.items;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.qubiq.buffer.Durability;
import io.qubiq.buffer.OverflowPolicy;
import io.qubiq.core.error.PermanentException;
import io.qubiq.core.sink.ItemCodec;
import io.qubiq.testkit.ScriptedSink;
import io.qubiq.testkit.ScriptedSink.Failure;
import io.qubiq.testkit.TextCodec;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Items are encoded for the buffer only when they are buffered: a batch the fast path delivers is
 * not encoded (bar the one-in-{@value FastPathBytes#SAMPLE_EVERY} size sample), a batch that has to
 * be buffered is, in full and exactly once, whether the latch was closed before or the fast-path
 * write failed.
 */
class ChannelEncodingTest {

    @TempDir
    Path dir;

    private final CountingCodec codec = new CountingCodec();
    private ChannelFixture f;

    @AfterEach
    void stop() throws Exception {
        if (f != null) {
            f.close();
        }
    }

    private ChannelFixture start() throws Exception {
        f = new ChannelFixture(dir, ChannelFixture.fastConfig().withDurability(Durability.NONE), OverflowPolicy.REFUSE,
                new ScriptedSink<>("dest"), codec).start();
        return f;
    }

    @Test
    void fastPathDeliversWithoutEncodingEveryItem() throws Exception {
        start();
        for (int batch = 0; batch < 20; batch++) {
            assertThat(f.channel.submit(items("b" + batch + "-", 0, 32))).isEqualTo(SubmitOutcome.HANDED_OFF);
            int delivered = (batch + 1) * 32;
            await().until(() -> f.channel.status().itemsDelivered() == delivered);
        }

        await().until(() -> f.channel.status().itemsDelivered() == 640);
        assertThat(f.sink.received()).hasSize(640);
        assertThat(codec.encoded.get()).as("one size sample per 64 items").isEqualTo(640 / FastPathBytes.SAMPLE_EVERY);
        ChannelStatus status = f.channel.status();
        assertThat(status.itemsIn()).isEqualTo(640);
        assertThat(status.itemsDelivered()).isEqualTo(640);
    }

    @Test
    void failedFastPathWriteEncodesTheBatchOnceAndBuffersAllOfIt() throws Exception {
        start();
        f.sink.failNext(Failure.TRANSIENT, 1);

        assertThat(f.channel.submit(items("x", 0, 10))).isEqualTo(SubmitOutcome.HANDED_OFF);

        await().until(() -> f.sink.received().size() == 10);
        assertThat(codec.encoded.get()).as("the batch once, for the buffer, and the one-item size sample taken"
                + " when it was handed off").isEqualTo(11);
        assertThat(f.sink.received()).containsExactlyElementsOf(items("x", 0, 10));
        assertThat(codec.decoded.get()).isEqualTo(10);
    }

    @Test
    void batchBehindABacklogIsEncodedOnceAndDeliveredInOrder() throws Exception {
        start();
        f.sink.down(true);
        f.channel.submit(items("first", 0, 5)); // its hand-off write fails: buffered, latch closed
        await().until(() -> f.channel.status().bufferedItems() == 5);
        int afterFirst = codec.encoded.get();

        assertThat(f.channel.submit(items("second", 0, 5))).isEqualTo(SubmitOutcome.BUFFERED);

        assertThat(codec.encoded.get() - afterFirst).isEqualTo(5);
        f.sink.down(false);
        await().until(() -> f.sink.received().size() == 10);
        assertThat(f.sink.received().subList(0, 5)).containsExactlyElementsOf(items("first", 0, 5));
        assertThat(f.sink.received().subList(5, 10)).containsExactlyElementsOf(items("second", 0, 5));
    }

    /** {@link TextCodec}, counting what it encodes and decodes. */
    private static final class CountingCodec implements ItemCodec<String> {
        private final TextCodec text = new TextCodec();
        final AtomicInteger encoded = new AtomicInteger();
        final AtomicInteger decoded = new AtomicInteger();

        @Override
        public byte[] encode(String item) {
            encoded.incrementAndGet();
            return text.encode(item);
        }

        @Override
        public String decode(byte[] bytes) throws PermanentException {
            decoded.incrementAndGet();
            return text.decode(bytes);
        }

        @Override
        public String preview(String item) {
            return item;
        }
    }
}
