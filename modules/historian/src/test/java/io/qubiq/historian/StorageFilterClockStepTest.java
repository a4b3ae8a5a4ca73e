package io.qubiq.historian;

import static org.assertj.core.api.Assertions.assertThat;

import io.qubiq.core.tag.TagPath;
import io.qubiq.core.tag.TagValue;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The storage rules' intervals follow the monotonic ticker, not the wall clock: a wall clock stepped
 * one hour back or forward neither stops storing changes and heartbeats nor rushes a burst of them.
 * Each test drives time the way a running gateway sees it: the ticker and wall clock move together
 * ({@link MutableClock#advance}), and once the wall clock alone is set ({@link MutableClock#step}).
 */
class StorageFilterClockStepTest {

    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    static final TagPath TEMP = TagPath.of("plant/line1/temp");
    static final Duration HOUR = Duration.ofHours(1);

    final MutableClock clock = new MutableClock(T0);

    StorageFilter filter(StorageRule rule) {
        return new StorageFilter(rule, List.of(), clock, clock.ticker());
    }

    /** A changing value every second for {@code seconds}, each offered and then the due ones collected. */
    List<HistorySample> changeEverySecond(StorageFilter filter, int seconds, double from) {
        List<HistorySample> stored = new ArrayList<>();
        for (int i = 0; i < seconds; i++) {
            clock.advanceMillis(1000);
            filter.offer(TagValue.good(TEMP, from + i, clock.instant())).ifPresent(stored::add);
            stored.addAll(filter.due());
        }
        return stored;
    }

    /** The filter's ticker turns for {@code seconds}, every 250 ms as the historian's ticker thread does. */
    List<HistorySample> quietFor(StorageFilter filter, int seconds) {
        List<HistorySample> stored = new ArrayList<>();
        for (int i = 0; i < seconds * 4; i++) {
            clock.advanceMillis(250);
            stored.addAll(filter.due());
        }
        return stored;
    }

    @Test
    void changesUnderAMinimumIntervalKeepBeingStoredAfterTheWallClockStepsBackAnHour() {
        // Regression (issue 19, item 3): the minimum interval was measured on the wall clock, so after a
        // step back of one hour every change looked "sooner than min_interval_ms" after the last stored
        // one and was held back: 0 of 600 changes stored in 10 minutes.
        StorageFilter filter = filter(StorageRule.defaults().withMinIntervalMs(1000));
        assertThat(changeEverySecond(filter, 10, 0)).hasSize(10);

        clock.step(HOUR.negated());
        List<HistorySample> stored = changeEverySecond(filter, 600, 100);

        assertThat(stored).hasSize(600);
        assertThat(stored.get(0).value()).isEqualTo(100.0);
        assertThat(stored.get(0).sourceTs()).as("values keep the source time stamped by the stepped wall clock")
                .isEqualTo(T0.plusSeconds(11).minus(HOUR));
    }

    @Test
    void aHeldBackChangeIsReleasedOnTimeAfterTheWallClockStepsBackAnHour() {
        // Regression: a held-back change waited for "last stored + min interval" on the wall clock, an hour
        // away after a step back, so the latest value of a tag that then went quiet was not stored for an hour.
        StorageFilter filter = filter(StorageRule.defaults().withMinIntervalMs(1000));
        filter.offer(TagValue.good(TEMP, 1.0, clock.instant()));
        clock.advanceMillis(300);
        assertThat(filter.offer(TagValue.good(TEMP, 2.0, clock.instant()))).isEmpty();

        clock.step(HOUR.negated());
        clock.advanceMillis(699);
        assertThat(filter.due()).isEmpty();
        clock.advanceMillis(1);

        assertThat(filter.due()).extracting(HistorySample::value).containsExactly(2.0);
    }

    @Test
    void heartbeatsKeepTheirIntervalAfterTheWallClockStepsBackAnHour() {
        // Regression (issue 19, item 3): a quiet tag's heartbeat was due "max_interval_ms after the last
        // stored" on the wall clock; after a step back of one hour no heartbeat came for an hour.
        StorageFilter filter = filter(StorageRule.defaults().withMaxIntervalMs(5000));
        filter.offer(TagValue.good(TEMP, 7.0, clock.instant()));
        assertThat(quietFor(filter, 10)).hasSize(2);

        clock.step(HOUR.negated());
        List<HistorySample> beats = quietFor(filter, 60);

        assertThat(beats).hasSize(12).allSatisfy(beat -> assertThat(beat.value()).isEqualTo(7.0));
        assertThat(beats.get(0).ts()).as("a heartbeat is stamped with the wall clock, stepped back as it is")
                .isEqualTo(T0.plusSeconds(15).minus(HOUR));
        assertThat(beats.get(0).sourceTs()).as("and keeps the source time of the value it repeats").isEqualTo(T0);
    }

    @Test
    void aWallClockStepForwardOfAnHourBringsNoBurstOfHeartbeatsAndNoStop() {
        // Regression: on the wall clock, a step forward of one hour made every quiet tag's heartbeat and every
        // held-back change due at once (a burst with bogus intervals); the ticker did not move, so nothing is due.
        StorageFilter filter = filter(StorageRule.defaults().withMinIntervalMs(1000).withMaxIntervalMs(5000));
        filter.offer(TagValue.good(TEMP, 7.0, clock.instant()));
        clock.advanceMillis(4000);
        assertThat(filter.offer(TagValue.good(TEMP, 7.0, clock.instant()))).as("unchanged").isEmpty();

        clock.step(HOUR);
        assertThat(filter.due()).as("no heartbeat: 4 s of 5 s have passed").isEmpty();
        clock.advanceMillis(100);
        assertThat(filter.offer(TagValue.good(TEMP, 8.0, clock.instant()))).as("a change is stored at once")
                .isPresent();
        List<HistorySample> beats = quietFor(filter, 60);

        assertThat(beats).as("one heartbeat every 5 s, no more, no less").hasSize(12);
        assertThat(beats.get(0).ts()).isEqualTo(T0.plusMillis(9100).plus(HOUR));
    }

    @Test
    void changesAndHeartbeatsKeepTheirRhythmAcrossAStepBackAndAStepForward() {
        // Regression: the scenario end to end on one rule: a tag changing every second under
        // min_interval_ms and a heartbeat, through a step back and then a step forward of one hour.
        StorageFilter filter = filter(StorageRule.defaults().withMinIntervalMs(2000).withMaxIntervalMs(10_000));
        assertThat(changeEverySecond(filter, 60, 0)).hasSize(30);

        clock.step(HOUR.negated());
        assertThat(changeEverySecond(filter, 60, 1000)).hasSize(30);
        assertThat(quietFor(filter, 60)).hasSize(6);

        clock.step(HOUR);
        assertThat(changeEverySecond(filter, 60, 2000)).hasSize(30);
        assertThat(quietFor(filter, 60)).hasSize(6);
    }
}
