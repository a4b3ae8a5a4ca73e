package io.qubiq.historian;

import static org.assertj.core.api.Assertions.assertThat;

import io.qubiq.core.tag.DataType;
import io.qubiq.core.tag.Quality;
import io.qubiq.core.tag.TagPath;
import io.qubiq.core.tag.TagValue;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class StorageFilterTest {

    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    static final TagPath TEMP = TagPath.of("plant/line1/temp");

    final MutableClock clock = new MutableClock(T0);

    StorageFilter filter(StorageRule rule) {
        return new StorageFilter(rule, List.of(), clock, clock.ticker());
    }

    TagValue value(Object v) {
        return TagValue.good(TEMP, v, clock.instant());
    }

    @Test
    void firstSampleOfATagIsAlwaysStored() {
        StorageFilter filter = filter(StorageRule.defaults().withDeadbandAbsolute(100));

        assertThat(filter.offer(value(1.0))).isPresent();
    }

    @Test
    void onChangeSkipsRepeatedValuesAndStoresChanges() {
        StorageFilter filter = filter(StorageRule.defaults());

        assertThat(filter.offer(value(1.0))).isPresent();
        assertThat(filter.offer(value(1.0))).isEmpty();
        assertThat(filter.offer(value(1.5))).isPresent();
        assertThat(filter.offer(value("a"))).isPresent();
        assertThat(filter.offer(value("a"))).isEmpty();
    }

    @Test
    void absoluteDeadbandStoresOnlyMovesBeyondItFromTheLastStoredValue() {
        StorageFilter filter = filter(StorageRule.defaults().withDeadbandAbsolute(0.5));

        assertThat(filter.offer(value(10.0))).isPresent();
        assertThat(filter.offer(value(10.4))).isEmpty();
        assertThat(filter.offer(value(10.5))).as("exactly the deadband is not beyond it").isEmpty();
        assertThat(filter.offer(value(9.4))).isPresent();
        assertThat(filter.offer(value(9.8))).as("compared with 9.4, the last stored").isEmpty();
    }

    @Test
    void percentDeadbandIsRelativeToTheLastStoredMagnitude() {
        StorageFilter filter = filter(StorageRule.defaults().withDeadbandPercent(10));

        assertThat(filter.offer(value(200L))).isPresent();
        assertThat(filter.offer(value(219L))).isEmpty();
        assertThat(filter.offer(value(221L))).isPresent();
        assertThat(filter.offer(value(200L))).as("221 * 10 % = 22.1 > 21").isEmpty();
        assertThat(filter.offer(value(198L))).isPresent();
    }

    @Test
    void qualityChangeIsStoredEvenWithinTheDeadband() {
        StorageFilter filter = filter(StorageRule.defaults().withDeadbandAbsolute(5));

        assertThat(filter.offer(value(1.0))).isPresent();
        TagValue uncertain = new TagValue(TEMP, 1.1, DataType.FLOAT64, Quality.UNCERTAIN, T0, T0);
        assertThat(filter.offer(uncertain)).isPresent();
        assertThat(filter.offer(TagValue.withoutValue(TEMP, DataType.FLOAT64, Quality.BAD_NOT_CONNECTED, T0)))
                .isPresent();
    }

    @Test
    void alwaysModeStoresRepeatedValues() {
        StorageFilter filter = filter(StorageRule.defaults().withMode(StorageMode.ALWAYS));

        assertThat(filter.offer(value(1.0))).isPresent();
        assertThat(filter.offer(value(1.0))).isPresent();
    }

    @Test
    void minIntervalHoldsBackTheLatestChangeAndReleasesItWhenTheIntervalHasPassed() {
        StorageFilter filter = filter(StorageRule.defaults().withMinIntervalMs(1000));

        assertThat(filter.offer(value(1.0))).isPresent();
        clock.advanceMillis(300);
        assertThat(filter.offer(value(2.0))).isEmpty();
        clock.advanceMillis(300);
        TagValue latest = value(3.0);
        assertThat(filter.offer(latest)).isEmpty();
        assertThat(filter.due()).as("600 ms after the last stored").isEmpty();

        clock.advanceMillis(400);
        List<HistorySample> due = filter.due();

        assertThat(due).extracting(HistorySample::value).containsExactly(3.0);
        assertThat(due.get(0).ts()).isEqualTo(latest.sourceTime());
        assertThat(filter.due()).isEmpty();
    }

    @Test
    void changeAfterTheMinIntervalIsStoredAtOnce() {
        StorageFilter filter = filter(StorageRule.defaults().withMinIntervalMs(1000));

        filter.offer(value(1.0));
        clock.advanceMillis(1000);

        assertThat(filter.offer(value(2.0))).isPresent();
    }

    @Test
    void heldBackChangeIsDiscardedWhenTheValueReturnsToTheStoredOne() {
        StorageFilter filter = filter(StorageRule.defaults().withMinIntervalMs(1000));

        filter.offer(value(1.0));
        clock.advanceMillis(100);
        filter.offer(value(2.0));
        clock.advanceMillis(100);
        assertThat(filter.offer(value(1.0))).isEmpty();
        clock.advanceMillis(1000);

        assertThat(filter.due()).isEmpty();
    }

    @Test
    void heartbeatRestoresTheLastValueWithTheCurrentTimeWhenATagIsQuiet() {
        StorageFilter filter = filter(StorageRule.defaults().withMaxIntervalMs(5000));
        TagValue first = value(7.0);
        filter.offer(first);

        clock.advanceMillis(4999);
        assertThat(filter.due()).isEmpty();
        clock.advanceMillis(1);
        List<HistorySample> beat = filter.due();

        assertThat(beat).hasSize(1);
        assertThat(beat.get(0).value()).isEqualTo(7.0);
        assertThat(beat.get(0).ts()).isEqualTo(T0.plusMillis(5000));
        assertThat(beat.get(0).sourceTs()).isEqualTo(first.sourceTime());
        assertThat(filter.due()).as("the next heartbeat is a full interval later").isEmpty();
        clock.advanceMillis(5000);
        assertThat(filter.due()).hasSize(1);
    }

    @Test
    void storedChangeRestartsTheHeartbeatInterval() {
        StorageFilter filter = filter(StorageRule.defaults().withMaxIntervalMs(5000));
        filter.offer(value(1.0));
        clock.advanceMillis(4000);
        filter.offer(value(2.0));
        clock.advanceMillis(4000);

        assertThat(filter.due()).isEmpty();
    }

    @Test
    void whatIsStoredAndOnlyThatIsKeptInTheLiveTailAlsoWhenReleasedLaterOrRepeatedAsAHeartbeat() {
        LiveTail tail = new LiveTail(100);
        StorageFilter filter = new StorageFilter(StorageRule.defaults().withMinIntervalMs(1000)
                .withMaxIntervalMs(5000), List.of(), clock, clock.ticker(), tail);
        List<HistorySample> stored = new java.util.ArrayList<>();

        filter.offerAll(List.of(value(1.0), value(1.0), value(2.0)), clock.ticker().nanos(), stored); // 2.0 held back
        clock.advance(java.time.Duration.ofMillis(1000));
        stored.addAll(filter.due()); // 2.0 released
        clock.advance(java.time.Duration.ofMillis(5000));
        stored.addAll(filter.due()); // heartbeat of 2.0

        assertThat(stored).extracting(HistorySample::value).containsExactly(1.0, 2.0, 2.0);
        assertThat(tail.samples(TEMP, Instant.MIN, Instant.MAX)).containsExactlyElementsOf(stored);
    }

    @Test
    void aBatchOfferedAtOnceStoresWhatOfferingEachValueInTurnStores() {
        StorageRule rule = StorageRule.defaults().withDeadbandAbsolute(0.5).withMinIntervalMs(0);
        List<TagValue> values = new java.util.ArrayList<>();
        for (int i = 0; i < 50; i++) {
            values.add(TagValue.good(TagPath.of("plant/t" + (i % 3)), (i * 7 % 11) / 10.0, T0.plusMillis(i)));
        }
        StorageFilter one = filter(rule);
        List<HistorySample> each = new java.util.ArrayList<>();
        long now = clock.ticker().nanos();
        values.forEach(v -> one.offer(v, now).ifPresent(each::add));
        List<HistorySample> batch = new java.util.ArrayList<>();

        filter(rule).offerAll(values, now, batch);

        assertThat(batch).isNotEmpty().hasSizeLessThan(values.size()).containsExactlyElementsOf(each);
    }

    @Test
    void firstMatchingRuleAppliesAndOthersFollowTheDefault() {
        StorageRule fast = StorageRule.defaults().withTags("plant/*/temp").withMode(StorageMode.ALWAYS);
        StorageRule line2 = StorageRule.defaults().withTags("plant/line2").withDeadbandAbsolute(1);
        StorageFilter filter = new StorageFilter(StorageRule.defaults(), List.of(fast, line2), clock, clock.ticker());

        assertThat(filter.ruleFor(TagPath.of("plant/line2/temp"))).isEqualTo(fast);
        assertThat(filter.ruleFor(TagPath.of("plant/line2/flow"))).isEqualTo(line2);
        assertThat(filter.ruleFor(TagPath.of("plant/line2"))).isEqualTo(line2);
        assertThat(filter.ruleFor(TagPath.of("plant/line20/flow"))).isEqualTo(StorageRule.defaults());
        assertThat(filter.ruleFor(TagPath.of("plant/a/b/temp"))).isEqualTo(StorageRule.defaults());
        assertThat(new StorageFilter(StorageRule.defaults(), List.of(StorageRule.defaults().withTags("plant/**/temp")
                .withMinIntervalMs(5)), clock, clock.ticker()).ruleFor(TagPath.of("plant/a/b/temp")).minIntervalMs()).isEqualTo(5);
    }

    @Test
    void replacedRulesJudgeEachTagFromItsLastStoredSampleOn() {
        StorageFilter filter = filter(StorageRule.defaults().withDeadbandAbsolute(5));
        assertThat(filter.offer(value(10.0))).isPresent();
        assertThat(filter.offer(value(12.0))).as("within the old deadband").isEmpty();

        filter.replaceRules(StorageRule.defaults(), List.of(StorageRule.defaults().withTags("plant/**")
                .withDeadbandAbsolute(1)));

        assertThat(filter.ruleFor(TEMP).deadbandAbsolute()).contains(1.0);
        assertThat(filter.offer(value(10.5))).as("compared with 10.0, the last stored, under the new rule").isEmpty();
        assertThat(filter.offer(value(11.5))).as("beyond the new deadband").isPresent();
    }

    @Test
    void aSampleHeldBackUnderTheOldRuleIsReleasedByTheNewOnesInterval() {
        StorageFilter filter = filter(StorageRule.defaults().withMinIntervalMs(10_000));
        filter.offer(value(1.0));
        clock.advanceMillis(1000);
        assertThat(filter.offer(value(2.0))).as("held back").isEmpty();

        filter.replaceRules(StorageRule.defaults().withMinIntervalMs(500), List.of());
        clock.advanceMillis(10);

        assertThat(filter.due()).extracting(HistorySample::value).containsExactly(2.0);
    }
}
