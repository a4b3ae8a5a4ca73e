package io.qubiq.app.losses;

import static org.assertj.core.api.Assertions.assertThat;

import io.qubiq.core.event.DataLoss;
import io.qubiq.core.event.DataLostAlarm;
import io.qubiq.core.event.LossReason;
import io.qubiq.testkit.RecordingEvents;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class LossAlarmsTest {

    private final RecordingEvents events = new RecordingEvents();
    private final AtomicLong nanos = new AtomicLong();
    private final LossAlarms alarms = new LossAlarms(events, Clock.systemUTC(), nanos::get, Duration.ofMinutes(15),
            Duration.ofMinutes(1));

    private static DataLoss loss(String connection, LossReason reason, long items) {
        return DataLoss.of(Instant.now(), "channel", connection, reason, items, 0, "buffer at its limit");
    }

    private void advance(Duration by) {
        nanos.addAndGet(by.toNanos());
    }

    @Test
    void aLossRaisesOneAlarmNamingTheConnectionTheReasonAndTheCount() {
        alarms.note(loss("db", LossReason.DROP_OLDEST, 40));
        alarms.note(loss("db", LossReason.DROP_OLDEST, 2));
        alarms.tick();
        assertThat(events.alarms(DataLostAlarm.class)).singleElement().satisfies(alarm -> {
            assertThat(alarm.active()).isTrue();
            assertThat(alarm.key()).isEqualTo("data-lost/db/drop_oldest");
            assertThat(alarm.message()).contains("db").contains("42").contains("drop_oldest");
        });
    }

    @Test
    void ongoingLossesRaiseItAgainWithTheRunningCountAtMostOnceAMinute() {
        alarms.note(loss("db", LossReason.REFUSED, 1));
        alarms.tick();
        for (int second = 0; second < 59; second++) {
            advance(Duration.ofSeconds(1));
            alarms.note(loss("db", LossReason.REFUSED, 1));
            alarms.tick();
        }
        assertThat(events.alarms(DataLostAlarm.class)).hasSize(1);
        advance(Duration.ofSeconds(1));
        alarms.note(loss("db", LossReason.REFUSED, 1));
        alarms.tick();
        assertThat(events.alarms(DataLostAlarm.class)).hasSize(2).last().extracting(DataLostAlarm::items)
                .isEqualTo(61L);
    }

    @Test
    void itClearsAfterAQuietPeriodWithoutLosses() {
        alarms.note(loss("db", LossReason.BUFFER_DAMAGED, 21));
        alarms.tick();
        advance(Duration.ofMinutes(14));
        alarms.tick();
        assertThat(events.alarms(DataLostAlarm.class)).hasSize(1);
        advance(Duration.ofMinutes(1));
        alarms.tick();
        assertThat(events.alarms(DataLostAlarm.class)).hasSize(2).last().satisfies(alarm -> {
            assertThat(alarm.active()).isFalse();
            assertThat(alarm.items()).isEqualTo(21);
        });
    }

    @Test
    void anOperatorsDropRaisesNoAlarm() {
        alarms.note(loss("db", LossReason.OPERATOR_DROP, 3).by("erin"));
        alarms.tick();
        assertThat(events.alarms()).isEmpty();
    }
}
