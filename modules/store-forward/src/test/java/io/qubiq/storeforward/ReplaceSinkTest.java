package io.qubiq.storeforward;

import static io.qubiq.storeforward.ChannelFixture.items;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.qubiq.buffer.OverflowPolicy;
import io.qubiq.testkit.ScriptedSink;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A channel's sink and delivery settings replaced while producers keep submitting (a configuration
 * applied live). Would catch an item lost or duplicated at the switch (the hand-off dropped, or the
 * in-flight batch written again), the new sink delivering newer items before the older backlog, a
 * producer turned away during the switch, and counters that start over.
 */
class ReplaceSinkTest {

    @TempDir
    Path dir;

    @Test
    void itemsSubmittedThroughTheSwitchArriveOnceAndInOrderAcrossTheOldAndNewSink() throws Exception {
        try (ChannelFixture fixture = new ChannelFixture(dir, ChannelFixture.fastConfig(), OverflowPolicy.REFUSE)) {
            fixture.sink.writeDelayMillis(2);
            fixture.start();
            ScriptedSink<String> replacement = new ScriptedSink<>("dest");
            int total = 3_000;
            CompletableFuture<Void> producer = fixture.pacedProducer("v", total); // lands mid-stream
            await().atMost(Duration.ofSeconds(20)).until(() -> fixture.sink.received().size() > 500);

            ScriptedSink<String> old = (ScriptedSink<String>) fixture.channel.replaceSink(replacement,
                    fixture.config.withBatch(200, 0));

            assertThat(old).isSameAs(fixture.sink);
            producer.get(30, TimeUnit.SECONDS);
            await().atMost(Duration.ofSeconds(30)).until(() ->
                    fixture.sink.received().size() + replacement.received().size() >= total
                            && fixture.channel.status().bufferedItems() == 0);
            List<String> all = new ArrayList<>(fixture.sink.received());
            all.addAll(replacement.received());
            assertThat(all).containsExactlyElementsOf(items("v", 0, total));
            assertThat(replacement.received()).isNotEmpty();
            assertThat(fixture.channel.status().itemsDelivered()).as("counters carry on").isEqualTo(total);
            int writesBefore = replacement.writes();
            fixture.channel.submit(items("w", 0, 150));
            await().atMost(Duration.ofSeconds(10)).until(() -> replacement.received().size() == total
                    - fixture.sink.received().size() + 150);
            assertThat(replacement.writes() - writesBefore).as("the new batch size is in force").isEqualTo(1);
        }
    }

    @Test
    void aBacklogWaitingForADownDestinationIsDeliveredByTheNewSinkFromItsHead() throws Exception {
        try (ChannelFixture fixture = new ChannelFixture(dir, ChannelFixture.fastConfig(), OverflowPolicy.REFUSE)) {
            fixture.sink.down(true);
            fixture.start();
            fixture.channel.submit(items("b", 0, 100));
            await().atMost(Duration.ofSeconds(10)).until(() -> fixture.channel.status().bufferedItems() == 100);
            ScriptedSink<String> replacement = new ScriptedSink<>("dest");

            fixture.channel.replaceSink(replacement, fixture.config);

            await().atMost(Duration.ofSeconds(10)).until(() -> replacement.received().size() == 100);
            assertThat(replacement.received()).containsExactlyElementsOf(items("b", 0, 100));
            assertThat(fixture.sink.received()).isEmpty();
            assertThat(fixture.channel.status().itemsQuarantined()).isZero();
        }
    }

    @Test
    void aStorageSettingCannotChangeWhileTheChannelIsOpenAndNothingChanges() throws Exception {
        try (ChannelFixture fixture = new ChannelFixture(dir, ChannelFixture.fastConfig(), OverflowPolicy.REFUSE)) {
            fixture.start();
            ScriptedSink<String> replacement = new ScriptedSink<>("dest");
            assertThatThrownBy(() -> fixture.channel.replaceSink(replacement, fixture.config.withMaxBytes(8L << 20)))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("storage settings");
            fixture.channel.submit(items("c", 0, 5));
            await().atMost(Duration.ofSeconds(10)).until(() -> fixture.sink.received().size() == 5);
            assertThat(replacement.received()).isEmpty();
        }
    }
}
