package io.qubiq.storeforward;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.qubiq.buffer.Durability;
import io.qubiq.buffer.FileChannelFactory;
import io.qubiq.buffer.OverflowPolicy;
import io.qubiq.buffer.SegmentedDiskBuffer;
import io.qubiq.core.event.DataLoss;
import io.qubiq.core.event.LossReason;
import io.qubiq.core.event.QuarantineFullAlarm;
import io.qubiq.core.event.QuarantineUnwritableAlarm;
import io.qubiq.storeforward.quarantine.FullDiskQuarantines;
import io.qubiq.testkit.RecordingEvents;
import io.qubiq.testkit.ScriptedSink;
import io.qubiq.testkit.ScriptedSink.PoisonReport;
import io.qubiq.testkit.TextCodec;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A channel whose disk is full (ENOSPC, injected with the operating system's words through the
 * buffer's channel seam and the quarantine's write seam): each failure says the disk is full, nothing
 * already taken is lost, what could not be stored is a {@code disk_full} loss, and everything resumes
 * once space is back. Would catch: a failed quarantine write reported as "quarantine full", an item
 * that leaves the buffer without reaching the quarantine, a refused batch missing from the ledger.
 */
class ChannelDiskFullTest {

    @TempDir
    Path dir;

    private final AtomicBoolean diskFull = new AtomicBoolean();
    private final RecordingEvents events = new RecordingEvents();
    private final ScriptedSink<String> sink = new ScriptedSink<>("dest");
    private StoreForwardChannel<String> channel;

    @AfterEach
    void stop() throws Exception {
        if (channel != null) {
            channel.stop();
        }
    }

    /** Segment files cannot be created while the disk is full, as ENOSPC on open(O_CREAT) would say. */
    private final FileChannelFactory disk = (path, options) -> {
        if (diskFull.get() && path.getFileName().toString().startsWith("prepared-")) {
            throw new IOException("No space left on device");
        }
        return FileChannel.open(path, options);
    };

    private StoreForwardChannel<String> start() throws Exception {
        return start(Durability.PERIODIC);
    }

    private StoreForwardChannel<String> start(Durability durability) throws Exception {
        channel = new StoreForwardChannel<>("dest", ChannelFixture.fastConfig().withFastPath(false)
                        .withDurability(durability),
                OverflowPolicy.REFUSE, dir.resolve("buffer"),
                (options, listener) -> SegmentedDiskBuffer.open(options, listener, disk),
                maxBytes -> FullDiskQuarantines.open(dir.resolve("quarantine"), maxBytes, diskFull::get),
                sink, new TextCodec(), Liveness.alwaysUnknown(), events, Clock.systemUTC());
        channel.start();
        return channel;
    }

    @Test
    void aQuarantineWriteOnAFullDiskSaysSoAndTheItemStaysInTheBufferUntilItCanBeSetAside() throws Exception {
        start();
        sink.poison(item -> item.startsWith("bad"), PoisonReport.NAMED);
        channel.submit(List.of("ok-1"));
        await().until(() -> sink.received().contains("ok-1"));
        diskFull.set(true);
        channel.submit(List.of("ok-2", "bad-3", "ok-4"));

        await().atMost(Duration.ofSeconds(20)).until(() -> !events.alarms(QuarantineUnwritableAlarm.class).isEmpty());
        QuarantineUnwritableAlarm alarm = events.alarms(QuarantineUnwritableAlarm.class).get(0);
        assertThat(alarm.active()).isTrue();
        assertThat(alarm.diskFull()).isTrue();
        assertThat(alarm.message()).contains("Disk full", "quarantine of dest", "No space left on device",
                dir.resolve("quarantine").toString(), "stays in the buffer");
        assertThat(events.alarms(QuarantineFullAlarm.class)).as("not a full quarantine").isEmpty();
        assertThat(channel.status().state()).isEqualTo(ChannelState.STALLED);
        assertThat(sink.received()).as("nothing overtakes the item held at the head")
                .containsExactly("ok-1", "ok-2");
        assertThat(channel.status().bufferedItems()).isEqualTo(2); // bad-3 and ok-4, unacknowledged

        diskFull.set(false);
        await().atMost(Duration.ofSeconds(20)).until(() -> sink.received().contains("ok-4"));
        assertThat(sink.received()).containsExactly("ok-1", "ok-2", "ok-4");
        assertThat(channel.quarantine().list(0, 10, Optional.empty()).entries()).hasSize(1);
        assertThat(events.alarms(QuarantineUnwritableAlarm.class)).last()
                .satisfies(cleared -> assertThat(cleared.active()).isFalse());
        assertThat(events.losses()).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(Durability.class)
    void anAppendThatMeetsAFullDiskIsRefusedAsDiskFullAndToldToTheLedger(Durability durability) throws Exception {
        // with always, too: the producer learns of the refusal (its submit throws, nothing acknowledged)
        start(durability);
        sink.down(true);
        channel.submit(List.of("kept-1", "kept-2"));
        await().until(() -> channel.status().bufferedItems() == 2);
        // every segment the buffer prepares from now on fails: fill the one it has, then one more
        diskFull.set(true);
        String big = "x".repeat(50_000);
        int refused = 0;
        for (int i = 0; i < 20; i++) { // two segments' worth: the one it has and the one prepared ahead
            try {
                channel.submit(List.of(big + i));
            } catch (ChannelException e) {
                refused++;
                assertThat(e).hasMessageContaining("the disk is full").hasMessageContaining("No space left on device");
            }
        }
        assertThat(refused).isPositive();
        long buffered = channel.status().bufferedItems();
        assertThat(buffered + refused).isEqualTo(22);
        channel.stop(); // flushes what the ledger was told
        assertThat(events.losses()).allSatisfy(loss -> assertThat(loss.reason()).isEqualTo(LossReason.DISK_FULL));
        assertThat(events.losses().stream().mapToLong(DataLoss::items).sum()).isEqualTo(refused);

        diskFull.set(false);
        start(durability);
        sink.down(false);
        channel.submit(List.of("after"));
        await().atMost(Duration.ofSeconds(20)).until(() -> sink.received().contains("after"));
        assertThat(sink.received()).hasSize((int) buffered + 1).startsWith("kept-1", "kept-2");
    }
}
