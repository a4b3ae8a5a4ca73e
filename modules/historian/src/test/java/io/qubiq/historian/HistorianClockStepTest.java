package io.qubiq.historian;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.qubiq.core.event.EventPublisher;
import io.qubiq.core.tag.TagPath;
import io.qubiq.core.tag.TagValue;
import io.qubiq.questdb.exec.ExecClient;
import io.qubiq.sink.questdb.QuestDbRow;
import io.qubiq.storeforward.Liveness;
import io.qubiq.storeforward.StoreForwardChannel;
import io.qubiq.tagbus.TagBus;
import io.qubiq.testkit.ScriptedSink;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole historian (filter, batcher, channel) through wall clock steps, with time driven by hand:
 * values go in through the tag-bus consumer and the ticker thread's turn is taken by the test.
 */
class HistorianClockStepTest {

    static final Instant T0 = Instant.parse("2026-03-29T00:30:00Z");
    static final TagPath TEMP = TagPath.of("plant/line1/temp");
    static final Duration HOUR = Duration.ofHours(1);

    @TempDir
    Path dir;

    final MutableClock clock = new MutableClock(T0);
    final ScriptedSink<QuestDbRow> sink = new ScriptedSink<>("historian");
    StoreForwardChannel<QuestDbRow> channel;
    Historian historian;
    double next;

    void start(StorageRule rule) throws Exception {
        // linger 0: every stored sample is handed to the channel at once, so the sink shows what was stored
        HistorianConfig config = HistorianConfig.defaults().withBatching(100, 0).withRules(rule, List.of())
                .withStoreAndForward(HistorianHarness.fastChannel());
        channel = HistorianChannels.channel("historian", config, sink, dir, Liveness.alwaysUnknown(),
                EventPublisher.none(), Clock.systemUTC());
        historian = new Historian(config, "clock-step", new TagBus(Duration.ofSeconds(1)), channel,
                ExecClient.of("127.0.0.1:9", Duration.ofMillis(200)), clock, clock.ticker());
        channel.start();
        historian.start();
    }

    @AfterEach
    void stop() throws Exception {
        if (historian != null) {
            historian.stop();
        }
        if (channel != null) {
            channel.stop();
        }
    }

    /** {@code seconds} of a tag changing every second, the ticker thread turning every 250 ms. */
    void changing(int seconds) {
        for (int i = 0; i < seconds * 4; i++) {
            clock.advanceMillis(250);
            if (i % 4 == 3) {
                historian.accept(List.of(TagValue.good(TEMP, next++, clock.instant())));
            }
            historian.tick();
        }
    }

    /** {@code seconds} of a quiet tag, the ticker thread turning every 250 ms. */
    void quiet(int seconds) {
        for (int i = 0; i < seconds * 4; i++) {
            clock.advanceMillis(250);
            historian.tick();
        }
    }

    long stored() {
        return historian.status().samplesStored();
    }

    @Test
    void aWallClockStepBackOfAnHourDoesNotStopStoringChangesOrHeartbeats() throws Exception {
        // Regression (issue 19, item 3): after the wall clock stepped back one hour the historian stored
        // 0 of 600 changes over 10 minutes for tags with min_interval_ms and sent no heartbeats, because the
        // filter measured "since the last stored sample" on the wall clock.
        start(StorageRule.defaults().withMinIntervalMs(1000).withMaxIntervalMs(5000));
        changing(60);
        assertThat(stored()).isEqualTo(60);

        clock.step(HOUR.negated());
        changing(600);
        assertThat(stored()).as("every one of 600 changes, one a second against a 1 s minimum").isEqualTo(660);
        quiet(60);
        assertThat(stored()).as("a heartbeat every 5 s of a quiet minute").isEqualTo(672);

        await().atMost(Duration.ofSeconds(20)).until(() -> sink.received().size() == 672);
        QuestDbRow lastBeat = sink.received().get(671);
        assertThat(lastBeat.timestamp()).as("the heartbeat is stamped with the wall clock, stepped back")
                .isEqualTo(T0.plusSeconds(720).minus(HOUR));
    }

    @Test
    void aWallClockStepForwardOfAnHourBringsNoBurstOfHeartbeatsAndNoStop() throws Exception {
        // Regression: with intervals on the wall clock, a step forward of one hour made every quiet tag's
        // heartbeat and held-back change due at once; here the same minute stores the same rows either side.
        start(StorageRule.defaults().withMinIntervalMs(2000).withMaxIntervalMs(10_000));
        changing(60);
        quiet(60);
        long beforeStep = stored();
        assertThat(beforeStep).as("30 changes under a 2 s minimum, then 6 heartbeats").isEqualTo(36);

        clock.step(HOUR);
        historian.tick();
        assertThat(stored()).as("no burst at the step").isEqualTo(beforeStep);
        changing(60);
        quiet(60);

        assertThat(stored() - beforeStep).isEqualTo(36);
        await().atMost(Duration.ofSeconds(20)).until(() -> sink.received().size() == 72);
    }
}
