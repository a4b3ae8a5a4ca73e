package io.qubiq.storeforward;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.qubiq.buffer.Durability;
import io.qubiq.buffer.OverflowPolicy;
import io.qubiq.testkit.ScriptedSink.Failure;
import io.qubiq.testkit.ScriptedSink.PoisonReport;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The totals a channel reports (metrics, console): every item handed to {@code submit} and
 * accepted counts once as "in", whichever path it took, and "in" always covers "delivered" plus
 * "quarantined" plus what is still buffered.
 */
class ChannelCountsTest {

    @TempDir
    Path dir;

    private ChannelFixture f;

    /**
     * Durability {@code none}: counting does not depend on it, and it keeps these tests clear of the
     * periodic-fsync close failure in the buffer (see {@link ChannelStopDuringPeriodicFsyncTest}).
     */
    private static ChannelConfig config() {
        return ChannelFixture.fastConfig().withDurability(Durability.NONE);
    }

    @AfterEach
    void stop() throws Exception {
        if (f != null) {
            f.close();
        }
    }

    private void assertBalanced(long submitted) {
        await().until(() -> f.channel.status().bufferedItems() == 0);
        ChannelStatus status = f.channel.status();
        assertThat(status.itemsIn()).as("items in").isEqualTo(submitted);
        assertThat(status.itemsDelivered() + status.itemsQuarantined()).as("delivered + quarantined")
                .isEqualTo(submitted);
    }

    @Test
    void fastPathWriteCountsEveryItemInAndDelivered() throws Exception {
        f = new ChannelFixture(dir, config(), OverflowPolicy.REFUSE).start();
        f.submit("a", "b", "c");
        assertBalanced(3);
    }

    @Test
    void failedFastPathWriteCountsItsItemsInOnce() throws Exception {
        f = new ChannelFixture(dir, config(), OverflowPolicy.REFUSE).start();
        f.sink.failNext(Failure.TRANSIENT, 1);
        assertThat(f.submit("a", "b", "c")).isEqualTo(SubmitOutcome.HANDED_OFF);
        await().until(() -> f.sink.received().size() == 3);
        assertBalanced(3);
    }

    @Test
    void fastPathPartialRejectionCountsTheWrittenItemsInToo() throws Exception {
        f = new ChannelFixture(dir, config(), OverflowPolicy.REFUSE).start();
        f.sink.poison(item -> item.equals("bad"), PoisonReport.NAMED_PARTIAL);
        assertThat(f.submit("a", "bad", "c")).isEqualTo(SubmitOutcome.HANDED_OFF);
        await().until(() -> f.channel.status().itemsQuarantined() == 1);
        assertThat(f.sink.received()).containsExactly("a", "c");
        assertBalanced(3);
        assertThat(f.channel.status().itemsDelivered()).isEqualTo(2);
    }

    @Test
    void bufferedItemsCountInOnceAndDeliveredOnceWhenDrained() throws Exception {
        f = new ChannelFixture(dir, config(), OverflowPolicy.REFUSE).start();
        f.sink.down(true);
        f.submit("a", "b");
        f.submit("c");
        f.sink.down(false);
        await().until(() -> f.sink.received().size() == 3);
        assertBalanced(3);
    }
}
