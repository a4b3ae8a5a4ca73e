package io.qubiq.storeforward;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.qubiq.buffer.OverflowPolicy;
import io.qubiq.core.event.DataLoss;
import io.qubiq.core.event.LossReason;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A channel never grows into the disk's critical reserve: while the disk watcher says critical, the
 * buffer is held at its size and appends behave as at max_bytes per the overflow policy, with the
 * reason "disk almost full" and the loss told to the ledger as disk_full.
 */
class ChannelDiskReserveTest {

    static final String KB = "x".repeat(1000);
    static final long SEGMENT = 256 * 1024;

    @TempDir
    Path dir;

    private final AtomicBoolean critical = new AtomicBoolean();
    private ChannelFixture f;

    @AfterEach
    void stop() throws Exception {
        if (f != null) {
            f.close();
        }
    }

    private ChannelFixture channel(OverflowPolicy policy) throws Exception {
        f = new ChannelFixture(dir, ChannelFixture.fastConfig(), policy).start();
        f.channel.diskReserve(critical::get);
        f.sink.down(true);
        return f;
    }

    private List<DataLoss> losses(LossReason reason) {
        return f.events.losses().stream().filter(l -> l.reason() == reason).toList();
    }

    @Test
    void aDropOldestChannelDropsItsOldestItemsInsteadOfGrowingWhileTheDiskIsCritical() throws Exception {
        channel(OverflowPolicy.DROP_OLDEST);
        for (int i = 0; i < 400; i++) {
            f.submit("before-" + i + KB);
        }
        long held = f.channel.status().bufferedBytes();
        assertThat(held).as("above one segment, so the hold is at the bytes used").isGreaterThan(SEGMENT);

        critical.set(true);
        for (int i = 0; i < 1000; i++) {
            assertThat(f.submit("critical-" + i + KB)).isEqualTo(SubmitOutcome.BUFFERED);
        }
        assertThat(f.channel.status().bufferedBytes()).as("not grown").isLessThanOrEqualTo(held);
        long dropped = f.channel.status().itemsDropped();
        assertThat(dropped).isGreaterThanOrEqualTo(1000 - 10);

        critical.set(false);
        for (int i = 0; i < 200; i++) {
            f.submit("after-" + i + KB);
        }
        assertThat(f.channel.status().bufferedBytes()).as("grows again once space is back").isGreaterThan(held);

        f.sink.down(false);
        await().atMost(Duration.ofSeconds(20)).until(() -> f.sink.received().contains("after-199" + KB));
        assertThat(f.sink.received()).contains("critical-999" + KB).doesNotContain("before-0" + KB);
        f.channel.stop();
        assertThat(losses(LossReason.DISK_FULL).stream().mapToLong(DataLoss::items).sum()).isEqualTo(dropped);
        assertThat(losses(LossReason.DISK_FULL)).allSatisfy(loss -> assertThat(loss.detail())
                .contains("disk almost full").contains("drop_oldest"));
        assertThat(losses(LossReason.DROP_OLDEST)).as("nothing was at max_bytes").isEmpty();
    }

    @Test
    void aRefusingChannelRefusesWithDiskAlmostFullWhileTheDiskIsCritical() throws Exception {
        channel(OverflowPolicy.REFUSE);
        for (int i = 0; i < 400; i++) {
            f.submit("before-" + i + KB);
        }
        long held = f.channel.status().bufferedBytes();

        critical.set(true);
        int refused = 0;
        for (int i = 0; i < 50; i++) {
            try {
                f.submit("critical-" + i + KB);
            } catch (ChannelFullException e) {
                assertThat(e.getMessage()).contains("disk almost full");
                refused++;
            }
        }
        assertThat(refused).isEqualTo(50);
        assertThat(f.channel.status().bufferedBytes()).isEqualTo(held);
        assertThat(f.channel.status().itemsDropped()).as("the backlog is kept").isZero();

        critical.set(false);
        assertThat(f.submit("after" + KB)).isEqualTo(SubmitOutcome.BUFFERED);
        f.channel.stop();
        List<DataLoss> diskFull = losses(LossReason.DISK_FULL);
        assertThat(diskFull.stream().mapToLong(DataLoss::items).sum()).isEqualTo(50);
        assertThat(diskFull.stream().mapToLong(DataLoss::bytes).sum()).isGreaterThanOrEqualTo(50L * 1000);
        assertThat(diskFull).allSatisfy(loss -> assertThat(loss.detail()).contains("disk almost full")
                .contains("refuse"));
        assertThat(losses(LossReason.REFUSED)).isEmpty();
    }

    @Test
    void aSmallBacklogMayStillFillTheSegmentItAlreadyHas() throws Exception {
        channel(OverflowPolicy.REFUSE);
        critical.set(true);
        f.submit("first" + KB);
        // handed off in memory first; the forwarder buffers it when the write fails
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(f.channel.status().bufferedItems())
                .as("room already allocated on disk is used").isEqualTo(1));
        assertThat(losses(LossReason.DISK_FULL)).isEmpty();
    }
}
