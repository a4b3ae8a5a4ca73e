package io.qubiq.storeforward;

import static io.qubiq.storeforward.ChannelFixture.items;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.qubiq.buffer.BufferOptions;
import io.qubiq.buffer.Durability;
import io.qubiq.buffer.MemoryBuffer;
import io.qubiq.buffer.OverflowPolicy;
import io.qubiq.buffer.SegmentedDiskBuffer;
import io.qubiq.buffer.WatermarkListener;
import io.qubiq.core.event.DestinationSlowAlarm;
import io.qubiq.storeforward.quarantine.FileQuarantineStore;
import io.qubiq.storeforward.quarantine.MemoryQuarantineStore;
import io.qubiq.testkit.RecordingEvents;
import io.qubiq.testkit.TextCodec;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 19 item 7: a destination that answers, but more slowly than its timeout allows for a full
 * batch, still drains: timed-out writes are retried smaller, the write size grows back once the
 * destination keeps up, and the destination-slow alarm says the rates.
 */
class SlowDestinationTest {

    private static final long MS = 1_000_000L;

    @TempDir
    Path dir;

    private final MemoryBuffer buffer = MemoryBuffer.create(BufferOptions.defaults(Path.of("unused"))
            .withSegmentBytes(64 * 1024).withMaxBytes(1 << 20).withDurability(Durability.NONE),
            WatermarkListener.none());
    private final ChannelCounters counters = new ChannelCounters(System::nanoTime);
    private final RecordingEvents events = new RecordingEvents();

    private DeliveryAttempt<String> attempt(SlowerThanItsTimeoutSink sink, int batchItems) {
        ChannelConfig config = ChannelFixture.fastConfig().withBatch(batchItems, 0);
        SlowDestinationAlarm alarm = new SlowDestinationAlarm("dest", counters, events, Clock.systemUTC(),
                () -> buffer.stats().usedBytes(), buffer.stats().maxBytes());
        return new DeliveryAttempt<>("dest", config, sink, buffer.reader(), new MemoryQuarantineStore(1 << 20),
                counters, Clock.systemUTC(), alarm, sink.nanos::get);
    }

    private void append(List<String> items) throws Exception {
        for (String item : items) {
            buffer.appendBatch(List.of(ItemEnvelope.wrap(0, 0, item.getBytes(StandardCharsets.UTF_8))));
        }
    }

    /** One forwarder step: the head batch, delivered. */
    private DeliveryAttempt.Outcome step(DeliveryAttempt<String> attempt, int batchItems) throws Exception {
        return attempt.deliver(PreparedBatch.prepare(buffer.reader().peek(batchItems, 1 << 20), new TextCodec(), false));
    }

    // Catches: an idempotent channel retrying the same timed-out batch forever (4 of 3,697 items in three minutes).
    @Test
    void aBatchSlowerThanTheTimeoutIsWrittenInSmallerPiecesAndEveryItemArrivesInOrder() throws Exception {
        SlowerThanItsTimeoutSink sink = new SlowerThanItsTimeoutSink(50 * MS, 1_000 * MS, true);
        DeliveryAttempt<String> attempt = attempt(sink, 50);
        append(items("v", 0, 200));

        int steps = 0;
        while (buffer.stats().records() > 0 && steps < 10) {
            assertThat(step(attempt, 50).kind()).isEqualTo(DeliveryAttempt.Kind.DONE);
            steps++;
        }

        assertThat(buffer.stats().records()).isZero();
        assertThat(sink.received()).containsExactlyElementsOf(items("v", 0, 200));
        assertThat(steps).as("each batch is delivered in the attempt that found it too big").isEqualTo(4);
        assertThat(sink.writes()).startsWith(50, 25, 12);
        assertThat(attempt.windowItems()).isEqualTo(12);
    }

    // Catches: a slow destination that delivers something but silently falls behind, with no alarm.
    @Test
    void theDestinationSlowAlarmSaysTheDeliveryRateAgainstTheIncomingRateAndClearsWhenFullBatchesPassAgain()
            throws Exception {
        SlowerThanItsTimeoutSink sink = new SlowerThanItsTimeoutSink(50 * MS, 1_000 * MS, true);
        DeliveryAttempt<String> attempt = attempt(sink, 50);
        counters.bytesIn.add(100_000);
        append(items("v", 0, 100));

        step(attempt, 50);

        List<DestinationSlowAlarm> raised = events.alarms(DestinationSlowAlarm.class);
        assertThat(raised).hasSize(1);
        DestinationSlowAlarm alarm = raised.get(0);
        assertThat(alarm.active()).isTrue();
        assertThat(alarm.key()).isEqualTo("destination-slow/dest");
        assertThat(alarm.batchItems()).isEqualTo(12);
        assertThat(alarm.message()).contains("slower than its write timeout").contains("writing 12 items at a time")
                .contains("B/s coming in");

        sink.perItemNanos(MS);
        while (buffer.stats().records() > 0) {
            step(attempt, 50);
        }
        append(items("w", 0, 200));
        while (buffer.stats().records() > 0) {
            step(attempt, 50);
        }

        assertThat(attempt.windowItems()).isEqualTo(50);
        List<DestinationSlowAlarm> all = events.alarms(DestinationSlowAlarm.class);
        assertThat(all.get(all.size() - 1).active()).isFalse();
    }

    // Catches: a single item slower than the timeout spinning the forwarder without backoff.
    @Test
    void aSingleItemThatTimesOutBacksOffInsteadOfBeingSplitFurther() throws Exception {
        SlowerThanItsTimeoutSink sink = new SlowerThanItsTimeoutSink(2_000 * MS, 1_000 * MS, true);
        DeliveryAttempt<String> attempt = attempt(sink, 8);
        append(items("v", 0, 8));

        DeliveryAttempt.Outcome outcome = step(attempt, 8);

        assertThat(outcome.kind()).isEqualTo(DeliveryAttempt.Kind.RETRY);
        assertThat(sink.writes()).containsExactly(8, 4, 2, 1);
        assertThat(buffer.stats().records()).isEqualTo(8);
    }

    // Catches: halving that bypasses the attempt cap of a destination that may have committed (not idempotent).
    @Test
    void onANonIdempotentDestinationEveryTimedOutWriteCountsAgainstTheAttemptCap() throws Exception {
        SlowerThanItsTimeoutSink sink = new SlowerThanItsTimeoutSink(2_000 * MS, 1_000 * MS, false);
        DeliveryAttempt<String> attempt = attempt(sink, 4);
        append(items("v", 0, 4));

        for (int i = 0; i < 20 && buffer.stats().records() > 0; i++) {
            step(attempt, 4);
        }

        assertThat(sink.received()).isEmpty();
        assertThat(buffer.stats().records()).as("every item quarantined as outcome unknown at its cap").isZero();
        assertThat(counters.itemsQuarantined.get()).isEqualTo(4);
    }

    // Catches: the smaller writes only working in a hand-made loop, not behind a real channel and its forwarder.
    @Test
    void aChannelInFrontOfADestinationSlowerThanItsTimeoutKeepsDeliveringInOrder() throws Exception {
        SlowerThanItsTimeoutSink sink = new SlowerThanItsTimeoutSink(50 * MS, 1_000 * MS, true);
        StoreForwardChannel<String> channel = new StoreForwardChannel<>("dest",
                ChannelFixture.fastConfig().withBatch(100, 0), OverflowPolicy.REFUSE, dir.resolve("buffer"),
                SegmentedDiskBuffer::open, maxBytes -> FileQuarantineStore.open(dir.resolve("quarantine"), maxBytes),
                sink, new TextCodec(), new SettableLiveness(), events, Clock.systemUTC());
        channel.start();
        try {
            for (int from = 0; from < 1_000; from += 100) {
                channel.submit(items("v", from, from + 100));
            }
            await().atMost(Duration.ofSeconds(30)).until(() -> sink.received().size() == 1_000);
            assertThat(sink.received()).containsExactlyElementsOf(items("v", 0, 1_000));
            assertThat(channel.quarantine().size()).isZero();
        } finally {
            channel.stop();
        }
    }
}
