package io.qubiq.storeforward;

import static io.qubiq.storeforward.ChannelFixture.items;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.qubiq.buffer.OverflowPolicy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** DESIGN.md rules 1 to 3: isolation, acknowledge after flush, the ordering latch. */
class ChannelDeliveryTest {

    @TempDir
    Path dir;

    private final List<ChannelFixture> fixtures = new ArrayList<>();

    /** Whether the channel's sink takes buffered items as bytes ({@link EncodedChannelDeliveryTest}). */
    boolean encodedWrites() {
        return false;
    }

    private ChannelFixture fixture(Path path) throws Exception {
        return fixture(path, ChannelFixture.fastConfig());
    }

    private ChannelFixture fixture(Path path, ChannelConfig config) throws Exception {
        ChannelFixture fixture = new ChannelFixture(path, config, OverflowPolicy.REFUSE);
        if (encodedWrites()) {
            fixture.withEncodedWrites();
        }
        fixtures.add(fixture.start());
        return fixture;
    }

    @AfterEach
    void stop() throws Exception {
        for (ChannelFixture fixture : fixtures) {
            fixture.close();
        }
    }

    @Test
    void healthyDestinationTakesTheFastPathAndNothingTouchesTheBuffer() throws Exception {
        ChannelFixture f = fixture(dir);
        assertThat(f.submit("a", "b")).isEqualTo(SubmitOutcome.HANDED_OFF);
        await().until(() -> f.sink.received().size() == 2);
        assertThat(f.sink.received()).containsExactly("a", "b");
        await().until(() -> f.channel.status().itemsDelivered() == 2);
        ChannelStatus status = f.channel.status();
        assertThat(status.state()).isEqualTo(ChannelState.FAST_PATH);
        assertThat(status.bufferedItems()).isZero();
        assertThat(status.itemsDelivered()).isEqualTo(2);
    }

    @Test
    void rule1_failingDestinationDoesNotStallAnotherConnection() throws Exception {
        ChannelFixture failing = fixture(dir.resolve("sql"));
        ChannelFixture healthy = fixture(dir.resolve("historian"));
        failing.sink.down(true);

        for (int i = 0; i < 20; i++) {
            failing.submit("sql" + i);
            healthy.submit("h" + i);
        }

        await().until(() -> healthy.sink.received().size() == 20);
        assertThat(healthy.sink.received()).containsExactlyElementsOf(items("h", 0, 20));
        await().until(() -> failing.channel.status().bufferedItems() == 20);
        assertThat(dir.resolve("sql/buffer")).isDirectory();
        assertThat(dir.resolve("historian/buffer")).isDirectory();
    }

    @Test
    void rule2_itemsStayBufferedUntilTheSinkConfirmedTheWriteEvenAcrossARestart() throws Exception {
        ChannelFixture f = fixture(dir);
        f.sink.down(true);
        // handed off first (the destination is not known to be down yet), buffered when its write fails
        assertThat(f.submit("a", "b", "c")).isIn(SubmitOutcome.HANDED_OFF, SubmitOutcome.BUFFERED);
        await().until(() -> f.channel.status().state() == ChannelState.BACKING_OFF);

        f.restart();
        assertThat(f.channel.status().bufferedItems()).isEqualTo(3);

        f.sink.down(false);
        await().atMost(Duration.ofSeconds(10)).until(() -> f.sink.received().size() == 3);
        assertThat(f.sink.received()).containsExactly("a", "b", "c");
        await().until(() -> f.channel.status().bufferedItems() == 0);
    }

    @Test
    void rule3_liveWriteNeverOvertakesBufferedOnes() throws Exception {
        ChannelFixture f = fixture(dir);
        f.sink.down(true);
        for (int i = 0; i < 100; i++) {
            assertThat(f.submit("item" + i)).isIn(SubmitOutcome.HANDED_OFF, SubmitOutcome.BUFFERED);
        }
        await().until(() -> f.channel.status().bufferedItems() == 100);
        f.sink.down(false);
        // while the backlog drains, every new write must queue behind it
        for (int i = 100; i < 200; i++) {
            f.submit("item" + i);
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> f.sink.received().size() == 200);
        assertThat(f.sink.received()).containsExactlyElementsOf(items("item", 0, 200));
        // once the backlog is gone the latch opens again (the last of the 100 may already have used it)
        await().until(() -> f.channel.status().bufferedItems() == 0
                && f.channel.status().state() != ChannelState.DRAINING);

        assertThat(f.submit("after-drain")).isEqualTo(SubmitOutcome.HANDED_OFF);
        assertThat(f.sink.maxConcurrentWriters()).isEqualTo(1);
    }

    @Test
    void rule3_failedFastPathWriteIsBufferedAndClosesTheLatch() throws Exception {
        ChannelFixture f = fixture(dir);
        f.sink.failNext(io.qubiq.testkit.ScriptedSink.Failure.TRANSIENT, 1);
        assertThat(f.submit("first")).isEqualTo(SubmitOutcome.HANDED_OFF); // its write fails: buffered
        f.submit("second");
        await().until(() -> f.sink.received().size() == 2);
        assertThat(f.sink.received()).containsExactly("first", "second");
    }

    @Test
    void producersNeverCallTheSinkEvenWhenTheDestinationAnswersEveryWriteAfterSeconds() throws Exception {
        // issue 19: a slow database stalled every producer (and the tag bus upstream) on the fast path
        ChannelFixture f = fixture(dir);
        f.sink.writeDelayMillis(1_000);
        long started = System.nanoTime();
        List<String> sent = new java.util.ArrayList<>();
        for (int i = 0; i < 200; i++) {
            sent.add("slow" + i);
            assertThat(f.submit("slow" + i)).isIn(SubmitOutcome.HANDED_OFF, SubmitOutcome.BUFFERED);
        }
        assertThat(Duration.ofNanos(System.nanoTime() - started)).as("200 submits, none waiting for a write")
                .isLessThan(Duration.ofSeconds(1));
        f.sink.writeDelayMillis(0);
        await().atMost(Duration.ofSeconds(20)).until(() -> f.sink.received().size() >= 200);
        assertThat(f.sink.received()).containsExactlyElementsOf(sent);
        assertThat(f.sink.writerThreads()).allSatisfy(name -> assertThat(name).startsWith("forwarder-"));
    }

    @Test
    void aNormalStopKeepsWhatWasHandedOffInTheBuffer() throws Exception {
        ChannelFixture f = fixture(dir);
        f.sink.writeDelayMillis(300);
        for (int i = 0; i < 5; i++) {
            f.submit("kept" + i);
        }
        f.restart();
        f.sink.writeDelayMillis(0);
        await().atMost(Duration.ofSeconds(20)).until(() -> f.sink.received().containsAll(items("kept", 0, 5)));
        assertThat(f.sink.received().stream().distinct().toList()).containsExactlyElementsOf(items("kept", 0, 5));
    }

    @Test
    void fastPathCanBeSwitchedOffSoEveryWriteGoesThroughTheBuffer() throws Exception {
        ChannelFixture f = fixture(dir, ChannelFixture.fastConfig().withFastPath(false));
        assertThat(f.submit("a")).isEqualTo(SubmitOutcome.BUFFERED);
        await().until(() -> f.sink.received().size() == 1);
    }

    @Test
    void emptyBatchIsAcceptedWithoutWriting() throws Exception {
        ChannelFixture f = fixture(dir);
        assertThat(f.channel.submit(List.of())).isEqualTo(SubmitOutcome.DELIVERED);
        assertThat(f.sink.writes()).isZero();
    }
}
