package io.qubiq.historian;

import static org.assertj.core.api.Assertions.assertThat;

import io.qubiq.core.tag.DataType;
import io.qubiq.core.tag.Quality;
import io.qubiq.core.tag.TagPath;
import io.qubiq.core.tag.TagValue;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The in-memory tail: bounded per tag, oldest out first, and samples come back equal to what went in. */
class LiveTailTest {

    private static final TagPath TAG = TagPath.of("plant/line1/speed");
    private static final Instant T0 = Instant.parse("2026-06-01T00:00:00Z");
    private static final Instant FAR = Instant.parse("2100-01-01T00:00:00Z");

    private static HistorySample sample(int i) {
        return HistorySample.of(TagValue.good(TAG, i * 0.5, T0.plusMillis(i)));
    }

    @Test
    void keepsTheNewestSamplesOfEachTagInTheOrderTheyCame() {
        for (int capacity : new int[] {1, 10, 16, 40, 200}) { // below, at and above the first array size
            LiveTail tail = new LiveTail(capacity);
            List<HistorySample> added = new ArrayList<>();
            for (int i = 0; i < 3 * capacity + 7; i++) {
                added.add(sample(i));
                tail.add(sample(i));
                assertThat(tail.samples(TAG, T0, FAR)).as("capacity %d after %d", capacity, i + 1)
                        .containsExactlyElementsOf(added.subList(Math.max(0, i + 1 - capacity), i + 1));
            }
            assertThat(tail.tags()).isEqualTo(1);
        }
    }

    @Test
    void aRangeIsFromInclusiveToExclusiveToTheNanosecond() {
        LiveTail tail = new LiveTail(10);
        Instant t = T0.plusNanos(500);
        tail.add(HistorySample.of(TagValue.good(TAG, 1.0, t.minusNanos(1))));
        tail.add(HistorySample.of(TagValue.good(TAG, 2.0, t)));
        tail.add(HistorySample.of(TagValue.good(TAG, 3.0, t.plusNanos(1))));

        assertThat(tail.samples(TAG, t, t.plusNanos(1))).extracting(HistorySample::value).containsExactly(2.0);
        assertThat(tail.samples(TAG, t.minusSeconds(1), t)).extracting(HistorySample::value).containsExactly(1.0);
        assertThat(tail.samples(TagPath.of("other"), T0, FAR)).isEmpty();
    }

    @Test
    void everyKindOfSampleComesBackEqual() {
        LiveTail tail = new LiveTail(100);
        Instant source = T0.plusNanos(123_456_789);
        Instant server = T0.plusSeconds(1).plusNanos(7);
        List<HistorySample> samples = List.of(
                new HistorySample(TAG, DataType.FLOAT64, Double.NaN, Quality.GOOD, source, source, server),
                new HistorySample(TAG, DataType.FLOAT64, -0.0d, Quality.GOOD, source.plusNanos(1), source, server),
                new HistorySample(TAG, DataType.FLOAT32, 0.1f, Quality.UNCERTAIN, source.plusNanos(2), source, server),
                new HistorySample(TAG, DataType.INT32, Integer.MIN_VALUE, Quality.GOOD, source.plusNanos(3), source,
                        server),
                new HistorySample(TAG, DataType.INT64, Long.MAX_VALUE, Quality.GOOD, source.plusNanos(4), source,
                        server),
                new HistorySample(TAG, DataType.BOOLEAN, true, Quality.GOOD, source.plusNanos(5), source, server),
                new HistorySample(TAG, DataType.BOOLEAN, false, Quality.GOOD, source.plusNanos(6), source, server),
                new HistorySample(TAG, DataType.STRING, "running", Quality.GOOD, source.plusNanos(7), source, server),
                new HistorySample(TAG, DataType.DATETIME, Instant.MIN, Quality.GOOD, source.plusNanos(8), source,
                        server),
                new HistorySample(TAG, DataType.FLOAT64, null, Quality.BAD_NOT_CONNECTED, source.plusNanos(9), source,
                        server),
                // a heartbeat: stored at a later time, keeping the value's own times
                new HistorySample(TAG, DataType.FLOAT64, 21.5, Quality.GOOD, source.plusSeconds(60), source, server),
                // a value not carried by its type's class (the record allows it) is kept as it is
                new HistorySample(TAG, DataType.FLOAT64, 7, Quality.GOOD, source.plusSeconds(61), source, server));
        samples.forEach(tail::add);

        List<HistorySample> back = tail.samples(TAG, Instant.EPOCH, FAR);

        assertThat(back).containsExactlyElementsOf(samples);
        assertThat(back.get(2).value()).isInstanceOf(Float.class);
        assertThat(back.get(3).value()).isInstanceOf(Integer.class);
        assertThat(back.get(11).value()).isInstanceOf(Integer.class);
        assertThat(Double.doubleToRawLongBits((Double) back.get(1).value()))
                .isEqualTo(Double.doubleToRawLongBits(-0.0d));
    }

    @Test
    void samplesBefore1970AndBeyondWhatNanosecondsInALongHoldComeBackEqualAndInRange() {
        LiveTail tail = new LiveTail(10);
        Instant before1970 = Instant.parse("1900-03-04T05:06:07.123456789Z");
        Instant farPast = Instant.parse("1500-01-01T00:00:00.000000001Z");
        Instant farFuture = Instant.parse("2300-01-01T00:00:00Z");
        List<HistorySample> samples = List.of(
                new HistorySample(TAG, DataType.FLOAT64, 1.0, Quality.GOOD, before1970, before1970, before1970),
                new HistorySample(TAG, DataType.FLOAT64, 2.0, Quality.GOOD, farPast, farPast, farPast),
                new HistorySample(TAG, DataType.INT64, 3L, Quality.GOOD, T0, T0, farFuture),
                new HistorySample(TAG, DataType.STRING, "x", Quality.GOOD, T0.plusNanos(1), farPast, T0),
                new HistorySample(TAG, DataType.FLOAT64, 4.0, Quality.GOOD, farFuture, T0, T0));
        samples.forEach(tail::add);

        assertThat(tail.samples(TAG, Instant.MIN, Instant.MAX)).containsExactlyElementsOf(samples);
        assertThat(tail.samples(TAG, farPast, before1970)).extracting(HistorySample::value).containsExactly(2.0);
        assertThat(tail.samples(TAG, farPast.plusNanos(1), before1970.plusNanos(1)))
                .extracting(HistorySample::value).containsExactly(1.0);
        assertThat(tail.samples(TAG, T0, farFuture)).extracting(HistorySample::value).containsExactly(3L, "x");
        assertThat(tail.samples(TAG, farFuture, Instant.MAX)).extracting(HistorySample::value).containsExactly(4.0);
    }

    @Test
    void objectValuesOverwrittenByNumbersAreReleasedAndNumbersByObjectsReadBackRight() {
        LiveTail tail = new LiveTail(3);
        for (int i = 0; i < 12; i++) {
            Object value = i % 2 == 0 ? (Object) ("s" + i) : (Object) (double) i;
            DataType type = i % 2 == 0 ? DataType.STRING : DataType.FLOAT64;
            tail.add(new HistorySample(TAG, type, value, Quality.GOOD, T0.plusSeconds(i), T0, T0));
        }

        assertThat(tail.samples(TAG, T0, FAR)).extracting(HistorySample::value).containsExactly(9.0, "s10", 11.0);
    }

    @Test
    void aTailAtItsMaximumStopsGrowingAndEveryTagKeepsItsNewestSamplesInOrder() {
        LiveTail tail = new LiveTail(1000, 200);
        List<TagPath> tags = new ArrayList<>();
        List<List<HistorySample>> added = new ArrayList<>();
        for (int t = 0; t < 10; t++) {
            tags.add(TagPath.of("plant/t" + t));
            added.add(new ArrayList<>());
        }
        for (int i = 0; i < 300; i++) {
            for (int t = 0; t < 10; t++) {
                HistorySample sample = HistorySample.of(TagValue.good(tags.get(t), (double) i, T0.plusMillis(i)));
                added.get(t).add(sample);
                tail.add(sample);
            }
        }

        assertThat(tail.capacityAllocated()).isLessThanOrEqualTo(200);
        int kept = 0;
        for (int t = 0; t < 10; t++) {
            List<HistorySample> samples = tail.samples(tags.get(t), T0, FAR);
            List<HistorySample> all = added.get(t);
            assertThat(samples).as("tag %d", t).hasSizeGreaterThanOrEqualTo(16)
                    .containsExactlyElementsOf(all.subList(all.size() - samples.size(), all.size()));
            kept += samples.size();
        }
        assertThat(kept).isEqualTo(tail.capacityAllocated()).isGreaterThan(190); // the room left is used
    }

    @Test
    void aTagSeenAfterTheMaximumWasReachedStillKeepsItsNewestSixteen() {
        LiveTail tail = new LiveTail(1000, 20);
        for (int i = 0; i < 100; i++) {
            tail.add(sample(i)); // TAG takes all the room: 16, then 4 more
        }
        TagPath late = TagPath.of("plant/late");
        List<HistorySample> lateSamples = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            lateSamples.add(HistorySample.of(TagValue.good(late, (double) i, T0.plusMillis(i))));
            tail.add(lateSamples.get(i));
        }

        assertThat(tail.samples(TAG, T0, FAR)).hasSize(20);
        assertThat(tail.samples(late, T0, FAR)).containsExactlyElementsOf(lateSamples.subList(24, 40));
        assertThat(tail.capacityAllocated()).isEqualTo(36);
    }

    @Test
    void zeroSamplesPerTagKeepsNothing() {
        LiveTail tail = new LiveTail(0);
        tail.add(sample(1));

        assertThat(tail.samples(TAG, T0, FAR)).isEmpty();
        assertThat(tail.tags()).isZero();
    }
}
