package io.qubiq.core.disk;

import static org.assertj.core.api.Assertions.assertThat;

import io.qubiq.core.event.AlarmEvent;
import io.qubiq.core.event.AlarmSeverity;
import io.qubiq.core.event.AuditEvent;
import io.qubiq.core.event.DataLoss;
import io.qubiq.core.event.DiskSpaceAlarm;
import io.qubiq.core.event.EventPublisher;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class DiskSpaceCheckTest {

    private static final long TOTAL = 1_000_000;

    private final List<AlarmEvent> alarms = new ArrayList<>();
    private final EventPublisher events = new EventPublisher() {
        @Override
        public void alarm(AlarmEvent event) {
            alarms.add(event);
        }

        @Override
        public void audit(AuditEvent event) {
        }

        @Override
        public void lost(DataLoss loss) {
        }
    };
    private final DiskSpaceCheck check = new DiskSpaceCheck("/var/lib/qubiq", FreeSpaceThreshold.parse("10%"),
            FreeSpaceThreshold.parse("5%"), events, Clock.fixed(Instant.EPOCH, ZoneOffset.UTC));

    private static DiskSpace free(long bytes) {
        return new DiskSpace(bytes, TOTAL);
    }

    @Test
    void belowTheWarningThresholdTheAlarmIsRaisedOnceAndClearedWhenBackAbove() {
        check.update(free(500_000));
        assertThat(alarms).as("plenty free").isEmpty();

        assertThat(check.update(free(90_000))).isPresent();
        check.update(free(80_000));
        check.update(free(60_000));
        assertThat(alarms).as("raised once however many samples stay below").hasSize(1);
        DiskSpaceAlarm raised = (DiskSpaceAlarm) alarms.get(0);
        assertThat(raised.active()).isTrue();
        assertThat(raised.severity()).isEqualTo(AlarmSeverity.WARNING);
        assertThat(raised.message()).contains("/var/lib/qubiq").contains("90000 bytes").contains("9.0 %");
        assertThat(check.state()).isEqualTo(DiskState.WARNING);

        check.update(free(100_000));
        assertThat(alarms).hasSize(2);
        assertThat(alarms.get(1).active()).as("cleared at 10 % free").isFalse();
        assertThat(alarms.get(1).key()).isEqualTo(raised.key());
        assertThat(check.state()).isEqualTo(DiskState.OK);
    }

    @Test
    void belowTheCriticalThresholdTheAlarmTurnsCriticalAndIsClearedOnlyAboveTheWarningOne() {
        check.update(free(90_000));
        check.update(free(40_000));
        check.update(free(30_000));
        assertThat(alarms).hasSize(2);
        assertThat(alarms.get(1).severity()).isEqualTo(AlarmSeverity.CRITICAL);
        assertThat(alarms.get(1).message()).contains("Disk almost full at /var/lib/qubiq").contains("4.0 %");
        assertThat(check.state()).isEqualTo(DiskState.CRITICAL);

        check.update(free(70_000));
        assertThat(check.state()).isEqualTo(DiskState.WARNING);
        assertThat(alarms.get(2).active()).as("still raised, as a warning").isTrue();
        assertThat(alarms.get(2).severity()).isEqualTo(AlarmSeverity.WARNING);

        check.update(free(200_000));
        assertThat(alarms.get(3).active()).isFalse();
        assertThat(alarms).hasSize(4);
    }

    @Test
    void aDiskThatFillsAtOnceGoesStraightToCritical() {
        check.update(free(10_000));
        assertThat(alarms).singleElement().satisfies(a -> assertThat(a.severity()).isEqualTo(AlarmSeverity.CRITICAL));
        assertThat(check.lastSample()).contains(free(10_000));
    }

    @Test
    void sizeThresholdsIgnoreTheFileSystemsSize() {
        DiskSpaceCheck sized = new DiskSpaceCheck("/data", FreeSpaceThreshold.parse("2GB"),
                FreeSpaceThreshold.parse("1GB"), events, Clock.systemUTC());
        assertThat(sized.classify(new DiskSpace(3_000_000_000L, 4_000_000_000_000L))).isEqualTo(DiskState.OK);
        assertThat(sized.classify(new DiskSpace(1_500_000_000L, 4_000_000_000_000L))).isEqualTo(DiskState.WARNING);
        assertThat(sized.classify(new DiskSpace(999_999_999L, 4_000_000_000_000L))).isEqualTo(DiskState.CRITICAL);
    }
}
