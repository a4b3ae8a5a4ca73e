package io.qubiq.storeforward;

import static io.qubiq.storeforward.ChannelFixture.items;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.qubiq.buffer.DurableBuffer;
import io.qubiq.buffer.OverflowPolicy;
import io.qubiq.core.event.DataLoss;
import io.qubiq.core.event.LossReason;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operator's "drop the oldest now" when {@code max_bytes} is lowered below a backlog (a real channel:
 * disk buffer, file quarantine): exactly the oldest items beyond the new limit are dropped, counted once in
 * one loss with the user, and the rest is delivered in order. Would catch a trim that drops too many or the
 * newest, leaves the buffer above the limit, or loses a dropped item from the count.
 */
class DropOldestBeyondTest {

    @TempDir
    Path dir;

    @Test
    void exactlyTheOldestItemsBeyondTheLimitAreDroppedAndCountedAndTheRestDelivered() throws Exception {
        try (ChannelFixture fixture = new ChannelFixture(dir, ChannelFixture.fastConfig(), OverflowPolicy.REFUSE)) {
            fixture.start();
            fixture.sink.down(true);
            int total = 400;
            fixture.channel.submit(items("b", 0, total));
            await().atMost(Duration.ofSeconds(10)).until(() -> fixture.channel.status().bufferedItems() == total);
            long before = fixture.channel.status().bufferedBytes();
            long limit = before / 4;

            long dropped = fixture.channel.dropOldestBeyond(limit, "ada");

            ChannelStatus after = fixture.channel.status();
            assertThat(after.bufferedBytes()).as("within the new limit").isLessThanOrEqualTo(limit);
            assertThat(after.bufferedItems()).isEqualTo(total - dropped);
            long oneMore = DurableBuffer.recordBytes(fixture.codec.encode("b" + dropped).length + ItemEnvelope.HEADER_BYTES);
            assertThat(after.bufferedBytes() + oneMore).as("not one item more than needed").isGreaterThan(limit);
            List<DataLoss> losses = fixture.events.losses().stream()
                    .filter(loss -> loss.reason() == LossReason.MAX_BYTES_SHRUNK).toList();
            assertThat(losses).singleElement().satisfies(loss -> {
                assertThat(loss.items()).isEqualTo(dropped);
                assertThat(loss.who()).contains("ada");
                assertThat(loss.connection()).isEqualTo("dest");
                assertThat(loss.lastSequence() - loss.firstSequence() + 1).isEqualTo(dropped);
            });

            fixture.sink.down(false);
            await().atMost(Duration.ofSeconds(20)).until(() -> fixture.sink.received().size() == total - dropped);
            assertThat(fixture.sink.received()).as("the newest, in order, once")
                    .containsExactlyElementsOf(items("b", (int) dropped, total));
        }
    }

    @Test
    void aLimitAboveTheBacklogDropsNothing() throws Exception {
        try (ChannelFixture fixture = new ChannelFixture(dir, ChannelFixture.fastConfig(), OverflowPolicy.REFUSE)) {
            fixture.start();
            fixture.sink.down(true);
            fixture.channel.submit(items("b", 0, 50));
            await().atMost(Duration.ofSeconds(10)).until(() -> fixture.channel.status().bufferedItems() == 50);

            assertThat(fixture.channel.dropOldestBeyond(1L << 20, "ada")).isZero();

            assertThat(fixture.channel.status().bufferedItems()).isEqualTo(50);
            assertThat(fixture.events.losses()).noneMatch(loss -> loss.reason() == LossReason.MAX_BYTES_SHRUNK);
            fixture.sink.down(false);
            await().atMost(Duration.ofSeconds(20)).until(() -> fixture.sink.received().size() == 50);
            assertThat(fixture.sink.received()).containsExactlyElementsOf(items("b", 0, 50));
        }
    }
}
