package io.qubiq.storeforward;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.awaitility.Awaitility.await;

import io.qubiq.buffer.Durability;
import io.qubiq.buffer.OverflowPolicy;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A channel with periodic fsync must stop cleanly whenever {@code stop} comes, including while the
 * buffer's background fsync is in progress: a failed close leaves no clean-shutdown marker, so the
 * next start has to scan the whole buffer.
 */
class ChannelStopDuringPeriodicFsyncTest {

    @TempDir
    Path dir;

    /**
     * Fails today: {@code SegmentedDiskBuffer.close()} stops its periodic-fsync executor with
     * {@code shutdownNow()}, which interrupts the fsync thread; an interrupt during
     * {@code FileChannel.force} closes that channel ({@code ClosedByInterruptException}), and close's
     * own final fsync then fails with {@code ClosedChannelException}. The fix belongs in
     * {@code modules/buffer} (stop the executor with {@code shutdown()} and wait, or fsync on a
     * channel that interrupts cannot close); this store-forward test shows the effect on a channel.
     */
    @Test
    void stopSucceedsEvenWhenItLandsOnThePeriodicFsync() throws Exception {
        ChannelConfig base = ChannelFixture.fastConfig().withFastPath(false).withDurability(Durability.PERIODIC);
        ChannelConfig config = new ChannelConfig(base.maxBytes(), base.segmentBytes(), base.highWaterPercent(),
                base.lowWaterPercent(), base.overflowPolicy(), Durability.PERIODIC, 10, base.batchMaxItems(),
                base.batchMaxBytes(), base.lingerMs(), base.backoffInitialMs(), base.backoffMaxMs(),
                base.maxDeliveryAttempts(), base.quarantineMaxBytes(), false);
        for (int round = 0; round < 60; round++) {
            ChannelFixture f = new ChannelFixture(dir.resolve("r" + round), config, OverflowPolicy.REFUSE).start();
            for (int i = 0; i < 20; i++) {
                f.submit("item-" + i);
            }
            await().until(() -> f.sink.received().size() == 20);
            int r = round;
            assertThatCode(f.channel::stop).as("stop in round %d", r).doesNotThrowAnyException();
        }
    }
}
