package io.qubiq.storeforward;

import static org.assertj.core.api.Assertions.assertThat;

import io.qubiq.buffer.BufferException;
import io.qubiq.buffer.BufferOptions;
import io.qubiq.buffer.BufferReader;
import io.qubiq.buffer.BufferedRecord;
import io.qubiq.buffer.Durability;
import io.qubiq.buffer.MemoryBuffer;
import io.qubiq.buffer.WatermarkListener;
import io.qubiq.testkit.TextCodec;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ReadAheadTest {

    private final MemoryBuffer buffer = MemoryBuffer.create(BufferOptions.defaults(Path.of("unused"))
            .withSegmentBytes(64 * 1024).withMaxBytes(1 << 20).withDurability(Durability.NONE),
            WatermarkListener.none());
    private final List<String> peekingThreads = new CopyOnWriteArrayList<>();
    private final BufferReader reader = new BufferReader() {
        @Override
        public List<BufferedRecord> peek(int maxRecords, long maxBytes) throws BufferException {
            peekingThreads.add(Thread.currentThread().getName());
            return buffer.reader().peek(maxRecords, maxBytes);
        }

        @Override
        public List<BufferedRecord> peekAfter(long after, int maxRecords, long maxBytes) throws BufferException {
            peekingThreads.add(Thread.currentThread().getName());
            return buffer.reader().peekAfter(after, maxRecords, maxBytes);
        }

        @Override
        public void acknowledge(long sequence) throws BufferException {
            buffer.reader().acknowledge(sequence);
        }
    };
    private final ReadAhead<String> readAhead = new ReadAhead<>("dest", reader, new TextCodec(), false, 4, 1 << 20);

    @AfterEach
    void close() throws Exception {
        readAhead.close();
        buffer.close();
    }

    private void append(String... items) throws BufferException {
        for (String item : items) {
            buffer.append(ItemEnvelope.wrap(0, 0, item.getBytes(StandardCharsets.UTF_8)));
        }
    }

    private static List<String> values(PreparedBatch<String> batch) {
        List<String> values = new ArrayList<>();
        for (PreparedBatch.Entry<String> entry : batch.entries()) {
            values.add(entry instanceof PreparedBatch.Decoded<String> decoded ? decoded.value() : "?");
        }
        return values;
    }

    @Test
    void theBatchAfterTheOneInHandIsReadOnTheReadAheadThreadAndHandedOutAfterAcknowledgement() throws Exception {
        append("a", "b", "c", "d", "e", "f", "g");

        PreparedBatch<String> first = readAhead.fetch(Long.MIN_VALUE);
        assertThat(values(first)).containsExactly("a", "b", "c", "d");
        buffer.reader().acknowledge(first.lastSequence());
        PreparedBatch<String> second = readAhead.fetch(first.lastSequence());

        assertThat(values(second)).containsExactly("e", "f", "g");
        assertThat(peekingThreads.get(0)).isEqualTo(Thread.currentThread().getName());
        assertThat(peekingThreads.get(1)).isEqualTo("forwarder-dest-read-ahead");
    }

    @Test
    void askingAgainFromTheLastAcknowledgedSequenceRereadsTheHeadForARetry() throws Exception {
        append("a", "b", "c", "d", "e", "f");

        PreparedBatch<String> first = readAhead.fetch(Long.MIN_VALUE);
        PreparedBatch<String> retried = readAhead.fetch(Long.MIN_VALUE);

        assertThat(values(retried)).containsExactly("a", "b", "c", "d");
        assertThat(retried.firstSequence()).isEqualTo(first.firstSequence());
    }

    @Test
    void aReadAheadThatFoundNothingIsNotTrustedOnceMoreRecordsArrived() throws Exception {
        append("a", "b");
        PreparedBatch<String> first = readAhead.fetch(Long.MIN_VALUE);
        append("c", "d");
        buffer.reader().acknowledge(first.lastSequence());

        // the background read may have caught "c" without "d": what counts is that nothing is skipped
        PreparedBatch<String> next = readAhead.fetch(first.lastSequence());
        List<String> read = new ArrayList<>(values(next));
        assertThat(read).isNotEmpty().startsWith("c");
        if (read.size() < 2) {
            buffer.reader().acknowledge(next.lastSequence());
            read.addAll(values(readAhead.fetch(next.lastSequence())));
        }
        assertThat(read).containsExactly("c", "d");
    }

    @Test
    void recordsThatAreNotEnvelopesOrDoNotDecodeArePreparedAsSuch() throws Exception {
        append("a");
        buffer.append(new byte[] {9, 9});
        buffer.append(ItemEnvelope.wrap(0, 0, new byte[] {(byte) 0xC3, (byte) 0x28}));

        PreparedBatch<String> batch = readAhead.fetch(Long.MIN_VALUE);

        assertThat(batch.entries()).hasSize(3);
        assertThat(batch.entries().get(0)).isInstanceOf(PreparedBatch.Decoded.class);
        assertThat(batch.entries().get(1)).isInstanceOf(PreparedBatch.NotAnEnvelope.class);
        assertThat(batch.entries().get(2)).isInstanceOf(PreparedBatch.Undecodable.class);
    }
}
