package io.qubiq.storeforward;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.qubiq.buffer.OverflowPolicy;
import io.qubiq.core.health.ConnectionState;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** DESIGN.md rule 7: a destination the monitor calls DOWN is not hammered; UNKNOWN counts as UP. */
class ChannelLivenessTest {

    @TempDir
    Path dir;

    private ChannelFixture f;

    @AfterEach
    void stop() throws Exception {
        if (f != null) {
            f.close();
        }
    }

    @Test
    void rule7_forwarderMakesNoAttemptWhileTheDestinationIsDownAndResumesAtOnceWhenUp() throws Exception {
        // a long backoff: only the monitor's UP can explain a quick resume
        f = new ChannelFixture(dir, ChannelFixture.fastConfig().withBackoff(60_000, 60_000), OverflowPolicy.REFUSE)
                .start();
        f.liveness.set(ConnectionState.DOWN);
        assertThat(f.submit("a", "b")).isEqualTo(SubmitOutcome.BUFFERED);
        await().until(() -> f.channel.status().state() == ChannelState.GATED);
        int writesWhileDown = f.sink.writes();
        await().during(Duration.ofMillis(300)).until(() -> f.sink.writes() == writesWhileDown);
        assertThat(writesWhileDown).isZero();

        f.liveness.set(ConnectionState.UP);
        await().atMost(Duration.ofSeconds(2)).until(() -> f.sink.received().size() == 2);
    }

    @Test
    void rule7_backoffEndsEarlyWhenTheMonitorReportsTheDestinationUpAgain() throws Exception {
        f = new ChannelFixture(dir, ChannelFixture.fastConfig().withBackoff(60_000, 60_000), OverflowPolicy.REFUSE)
                .start();
        f.sink.down(true);
        f.submit("a");
        await().until(() -> f.channel.status().state() == ChannelState.BACKING_OFF);
        f.sink.down(false);
        f.liveness.set(ConnectionState.UP);
        await().atMost(Duration.ofSeconds(2)).until(() -> f.sink.received().size() == 1);
    }

    @Test
    void rule7_unknownStateCountsAsUpSoTheSinkIsTried() throws Exception {
        f = new ChannelFixture(dir, ChannelFixture.fastConfig(), OverflowPolicy.REFUSE).start();
        assertThat(f.liveness.state()).isEqualTo(ConnectionState.UNKNOWN);
        assertThat(f.submit("a")).isEqualTo(SubmitOutcome.HANDED_OFF);
        await().atMost(Duration.ofSeconds(5)).until(() -> f.sink.received().size() == 1);
    }
}
