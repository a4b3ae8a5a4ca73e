package io.qubiq.storeforward;

import static org.assertj.core.api.Assertions.assertThat;

import io.qubiq.buffer.BufferStats;
import io.qubiq.core.event.BufferPressureAlarm;
import io.qubiq.core.event.ItemsRefusedAlarm;
import io.qubiq.testkit.RecordingEvents;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The refusal alarm, the pressure alarm's message while it stays raised, and time to full, driven
 * the way the channel drives them: water-mark callbacks from the buffer, {@code noteAppended}
 * after each append and {@code noteRefused} when a full buffer turns a batch away.
 */
class PressureAlarmsTest {

    static final long MAX = 1_000_000;

    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    private final RecordingEvents events = new RecordingEvents();
    private final Clock clock = Clock.fixed(Instant.parse("2026-12-02T08:00:00Z"), ZoneOffset.UTC);
    private final ChannelCounters counters = new ChannelCounters(nanos::get);
    private final PressureAlarms alarms = new PressureAlarms("db", counters, events, clock,
            new ChannelLosses("db", events, clock));

    private static BufferStats used(long bytes) {
        return new BufferStats(bytes, MAX, bytes / 100, Optional.empty(), 1, bytes / 100, 0, 0, 0, 0);
    }

    private void advanceMillis(long ms) {
        nanos.addAndGet(ms * 1_000_000L);
    }

    // Catches: refusals counted nowhere but the loss ledger and a WARN line, the channel showing "Dropped 0"
    // and only the stale pressure alarm while a full buffer turned 1,158 values away.
    @Test
    void aRefusingBufferRaisesItsOwnAlarmOnceCountsEveryRefusalAndClearsWhenItTakesItemsAgain() {
        alarms.noteRefused(10);
        alarms.noteRefused(5);

        assertThat(counters.itemsRefused.get()).isEqualTo(15);
        assertThat(alarms.refusing()).isTrue();
        assertThat(events.alarms(ItemsRefusedAlarm.class)).singleElement().satisfies(alarm -> {
            assertThat(alarm.active()).isTrue();
            assertThat(alarm.key()).isEqualTo("items-refused/db");
            assertThat(alarm.message()).contains("Buffer of db is full and refusing new items");
        });

        alarms.noteAppended(used(990_000));

        assertThat(alarms.refusing()).isFalse();
        assertThat(events.alarms(ItemsRefusedAlarm.class)).hasSize(2).last().satisfies(alarm -> {
            assertThat(alarm.active()).isFalse();
            assertThat(alarm.refusedInEpisode()).isEqualTo(15);
        });

        alarms.noteRefused(3); // a new episode counts from its own start
        assertThat(events.alarms(ItemsRefusedAlarm.class)).hasSize(3).last()
                .satisfies(alarm -> assertThat(alarm.refusedInEpisode()).isEqualTo(3));
    }

    // Catches: a refusal alarm that stays raised after the forwarder drained the buffer while no producer appended.
    @Test
    void theRefusalAlarmClearsWhenTheBufferFallsToItsLowWaterMark() {
        alarms.onHighWater(used(800_000));
        alarms.noteRefused(1);

        alarms.onLowWater(used(600_000));

        assertThat(alarms.refusing()).isFalse();
        assertThat(events.alarms(ItemsRefusedAlarm.class)).extracting(ItemsRefusedAlarm::active)
                .containsExactly(true, false);
    }

    // Catches: the pressure alarm still saying "20 % full" while the buffer is at 95 %.
    @Test
    void thePressureAlarmMessageFollowsTheFillByFivePointsOrOnceAMinuteWhileRaised() {
        alarms.onHighWater(used(800_000));
        alarms.noteAppended(used(830_000)); // 3 points: not yet
        alarms.noteAppended(used(851_000)); // 5.1 points since the last publication
        advanceMillis(30_000);
        alarms.noteAppended(used(852_000)); // half a minute, a small move: not yet
        advanceMillis(31_000);
        alarms.noteAppended(used(853_000)); // a minute since the last publication

        assertThat(events.alarms(BufferPressureAlarm.class)).extracting(BufferPressureAlarm::fillPercent)
                .containsExactly(80.0, 85.1, 85.3);
        assertThat(events.alarms(BufferPressureAlarm.class)).allSatisfy(alarm -> {
            assertThat(alarm.active()).isTrue();
            assertThat(alarm.key()).isEqualTo("buffer-pressure/db");
        });

        alarms.onLowWater(used(600_000));
        alarms.noteAppended(used(700_000)); // cleared: no more follow-ups
        assertThat(events.alarms(BufferPressureAlarm.class)).hasSize(4).last()
                .satisfies(alarm -> assertThat(alarm.active()).isFalse());
    }

    // Catches: "full in 14 min" five seconds into an outage that filled the buffer in about five, because the
    // smoothed out rate still showed the deliveries from before the outage.
    @Test
    void timeToFullFollowsTheLastTenSecondsOfFillNotTheSmoothedRates() {
        // an hour of steady flow: in and out both 10 kB/s, the smoothed rates settle there
        for (int s = 0; s < 3600; s++) {
            counters.bytesIn.add(10_000);
            counters.bytesOut.add(10_000);
            advanceMillis(1_000);
            counters.bytesIn.rate();
            counters.bytesOut.rate();
        }
        // the destination goes down: 5 s of 10 kB/s in, nothing out; the buffer grows 10 kB/s from 750 kB
        long fill = 750_000;
        for (int i = 0; i <= 50; i++) {
            alarms.noteAppended(used(fill));
            fill += 1_000;
            advanceMillis(100);
        }

        alarms.onHighWater(used(fill));

        BufferPressureAlarm alarm = events.alarms(BufferPressureAlarm.class).get(0);
        // 199 kB to go at 10 kB/s: about 20 s, not "not filling" nor many minutes
        assertThat(alarm.timeToFull()).hasValueSatisfying(eta ->
                assertThat(eta).isBetween(Duration.ofSeconds(18), Duration.ofSeconds(22)));
        assertThat(alarm.message()).contains("full in about");
    }
}
