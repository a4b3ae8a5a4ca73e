package io.qubiq.app.storeforward;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.qubiq.buffer.OverflowPolicy;
import io.qubiq.buffer.SegmentedDiskBuffer;
import io.qubiq.console.StoreForwardAccess.ActionResult;
import io.qubiq.console.StoreForwardAccess.ItemResult;
import io.qubiq.console.StoreForwardAccess.Selection;
import io.qubiq.storeforward.ChannelConfig;
import io.qubiq.storeforward.Liveness;
import io.qubiq.storeforward.StoreForwardChannel;
import io.qubiq.storeforward.quarantine.FileQuarantineStore;
import io.qubiq.storeforward.quarantine.QuarantineEntry;
import io.qubiq.testkit.RecordingEvents;
import io.qubiq.testkit.ScriptedSink;
import io.qubiq.testkit.TextCodec;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The REST answer to a quarantine retry, as {@code POST .../quarantine/retry} serializes it. */
class RetryAnswerTest {

    @TempDir
    Path dir;

    // Catches: "Retried 2 of 2." when one of the two failed again at once under a new id.
    @Test
    void theAnswerSaysPerItemDeliveredOrFailedAgainWithTheNewIdAndCountsOnlyTheDeliveredAsSucceeded()
            throws Exception {
        AtomicBoolean fixed = new AtomicBoolean(false);
        ScriptedSink<String> sink = new ScriptedSink<String>("db").poison(
                item -> item.startsWith("bad") && !(fixed.get() && item.equals("bad-fixed")),
                ScriptedSink.PoisonReport.NAMED);
        StoreForwardChannel<String> channel = new StoreForwardChannel<>("db", ChannelConfig.defaults()
                .withMaxBytes(4L << 20).withSegmentBytes(256 * 1024).withBatch(50, 0).withBackoff(5, 50)
                .withFastPath(false), OverflowPolicy.REFUSE, dir.resolve("buffer"), SegmentedDiskBuffer::open,
                maxBytes -> FileQuarantineStore.open(dir.resolve("quarantine"), maxBytes), sink, new TextCodec(),
                Liveness.alwaysUnknown(), new RecordingEvents(), Clock.systemUTC());
        channel.start();
        try {
            channel.submit(List.of("bad-fixed", "bad-still"));
            await().until(() -> channel.quarantine().size() == 2 && channel.status().bufferedItems() == 0);
            List<QuarantineEntry> entries = channel.quarantine().list(0, 10, Optional.empty()).entries();
            long stillId = entries.get(0).id();
            long fixedId = entries.get(1).id();
            fixed.set(true);

            ActionResult answer = new ChannelsAccess(Map.of("db", channel))
                    .retry("db", new Selection(List.of(fixedId, stillId), false), "erin", "127.0.0.1");

            assertThat(answer.requested()).isEqualTo(2);
            assertThat(answer.succeeded()).isEqualTo(1);
            assertThat(answer.outcomes()).containsEntry("delivered", 1).containsEntry("failed_again", 1);
            ItemResult delivered = answer.results().get(0);
            assertThat(delivered.id()).isEqualTo(fixedId);
            assertThat(delivered.outcome()).isEqualTo("delivered");
            assertThat(delivered.ok()).isTrue();
            ItemResult again = answer.results().get(1);
            long newId = channel.quarantine().list(0, 10, Optional.empty()).entries().get(0).id();
            assertThat(again.outcome()).isEqualTo("failed_again");
            assertThat(again.ok()).isFalse();
            assertThat(again.newId()).contains(newId);
            assertThat(again.message()).contains("quarantined as item " + newId).contains("bad-still");
            assertThat(channel.quarantine().list(0, 10, Optional.empty()).entries().get(0).previousIds())
                    .containsExactly(stillId);
        } finally {
            channel.stop();
        }
    }
}
