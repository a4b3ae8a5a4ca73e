package io.qubiq.storeforward;

import static io.qubiq.storeforward.ChannelFixture.items;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.qubiq.buffer.OverflowPolicy;
import io.qubiq.buffer.SegmentedDiskBuffer;
import io.qubiq.storeforward.quarantine.FileQuarantineStore;
import io.qubiq.testkit.RecordingEvents;
import io.qubiq.testkit.TextCodec;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The in-memory hand-off honours the slow-destination write window: once writes timed out, a batch
 * handed off while the latch is open is not written at its full size again (one more timeout, one
 * more attempt for each item), but in pieces the destination takes; small batches still go straight
 * from memory. Before, every batch that came through the hand-off after the backlog drained was
 * written whole and timed out first.
 */
class HandOffWriteWindowTest {

    private static final long MS = 1_000_000L;

    @TempDir
    Path dir;

    /** Takes at most 20 items in a write; anything larger is cut off by its timeout, unwritten. */
    private final SlowerThanItsTimeoutSink sink = new SlowerThanItsTimeoutSink(50 * MS, 1_000 * MS, true);
    private StoreForwardChannel<String> channel;

    @BeforeEach
    void start() throws Exception {
        channel = new StoreForwardChannel<>("dest", ChannelFixture.fastConfig().withBatch(100, 0),
                OverflowPolicy.REFUSE, dir.resolve("buffer"), SegmentedDiskBuffer::open,
                maxBytes -> FileQuarantineStore.open(dir.resolve("quarantine"), maxBytes), sink, new TextCodec(),
                new SettableLiveness(), new RecordingEvents(), Clock.systemUTC());
        channel.start();
    }

    @AfterEach
    void stop() throws Exception {
        channel.stop();
    }

    /** Everything so far delivered and the latch open again (the forwarder found the buffer empty). */
    private void awaitCaughtUp(int received) {
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            ChannelStatus status = channel.status();
            return sink.received().size() == received && status.bufferedItems() == 0
                    && (status.state() == ChannelState.IDLE || status.state() == ChannelState.FAST_PATH);
        });
    }

    @Test
    void batchesHandedOffAfterWritesTimedOutAreWrittenNoLargerThanTheWindowAndAllArriveInOrder() throws Exception {
        assertThat(channel.submit(items("a", 0, 100))).isEqualTo(SubmitOutcome.HANDED_OFF);
        awaitCaughtUp(100);
        assertThat(sink.writes()).as("the window shrinks on timeouts").startsWith(100, 50, 25);

        // the latch is open again: a full batch is handed off, then a small one
        assertThat(channel.submit(items("b", 0, 100))).isEqualTo(SubmitOutcome.HANDED_OFF);
        awaitCaughtUp(200);
        int writesBefore = sink.writes().size();
        assertThat(channel.submit(items("c", 0, 10))).isEqualTo(SubmitOutcome.HANDED_OFF);
        awaitCaughtUp(210);

        List<String> expected = new ArrayList<>(items("a", 0, 100));
        expected.addAll(items("b", 0, 100));
        expected.addAll(items("c", 0, 10));
        assertThat(sink.received()).containsExactlyElementsOf(expected);
        assertThat(sink.writes()).as("only the first write, before any timeout, had the full batch")
                .filteredOn(size -> size == 100).hasSize(1);
        assertThat(sink.writes().subList(writesBefore, sink.writes().size()))
                .as("a batch within the window is written from memory in one write").containsExactly(10);
        assertThat(channel.quarantine().size()).isZero();
    }
}
