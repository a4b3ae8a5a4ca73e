package io.qubiq.storeforward;

import static io.qubiq.storeforward.ChannelFixture.items;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.qubiq.buffer.OverflowPolicy;
import io.qubiq.core.health.ConnectionState;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Start-up priority (issue 20, start to ready): a channel that starts with a backlog leaves it alone
 * until start-up has settled or the hold's limit passed, then delivers it whole and in order, with
 * what was submitted meanwhile behind it; a channel that starts empty is not held.
 */
class BacklogHoldTest {

    @TempDir
    Path dir;

    private final List<ChannelFixture> fixtures = new ArrayList<>();

    @AfterEach
    void stopChannels() throws Exception {
        for (ChannelFixture f : fixtures) {
            f.close();
        }
    }

    /** A channel on {@link #dir} holding {@code n} items buffered while its destination was down, stopped. */
    private ChannelFixture withBacklog(int n) throws Exception {
        ChannelFixture f = new ChannelFixture(dir, ChannelFixture.fastConfig(), OverflowPolicy.REFUSE);
        fixtures.add(f);
        f.liveness.set(ConnectionState.DOWN);
        f.start();
        f.channel.submit(items("old", 0, n));
        await().until(() -> f.channel.status().bufferedItems() == n);
        f.channel.stop();
        f.liveness.set(ConnectionState.UP);
        return f;
    }

    @Test
    void aBacklogWaitsUntilStartUpSettlesThenArrivesWholeAndInOrderWithNewItemsBehindIt() throws Exception {
        // catches: a drain that starts before the device connections collect (the hold ignored), and a hold
        // that drops, reorders or never releases what it held
        ChannelFixture f = withBacklog(100);
        AtomicBoolean settled = new AtomicBoolean();
        f.holdBacklogUntil(settled::get, Duration.ofSeconds(30)).start();
        f.channel.submit(items("new", 0, 10));

        Thread.sleep(300); // deliberate negative check: nothing may arrive while start-up has not settled
        assertThat(f.sink.received()).isEmpty();

        settled.set(true);
        List<String> expected = new ArrayList<>(items("old", 0, 100));
        expected.addAll(items("new", 0, 10));
        await().atMost(Duration.ofSeconds(20)).until(() -> f.sink.received().size() >= expected.size());
        assertThat(f.sink.received()).containsExactlyElementsOf(expected);
    }

    @Test
    void aBacklogIsDeliveredOnceTheHoldsLimitPassesAlthoughStartUpNeverSettles() throws Exception {
        // catches: a gateway whose device connections never settle keeping its backlog from the destination for good
        ChannelFixture f = withBacklog(20);
        f.holdBacklogUntil(() -> false, Duration.ofMillis(200)).start();

        await().atMost(Duration.ofSeconds(20)).until(() -> f.sink.received().size() >= 20);
        assertThat(f.sink.received()).containsExactlyElementsOf(items("old", 0, 20));
    }

    @Test
    void aChannelThatStartsEmptyIsNotHeld() throws Exception {
        // catches: the hold delaying live data when there is no backlog to give way for
        ChannelFixture f = new ChannelFixture(dir, ChannelFixture.fastConfig(), OverflowPolicy.REFUSE);
        fixtures.add(f);
        f.holdBacklogUntil(() -> false, Duration.ofMinutes(5)).start();

        f.channel.submit(items("live", 0, 5));

        await().atMost(Duration.ofSeconds(10)).until(() -> f.sink.received().size() >= 5);
        assertThat(f.sink.received()).containsExactlyElementsOf(items("live", 0, 5));
    }
}
