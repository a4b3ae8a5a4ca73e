package io.qubiq.storeforward;

import static org.assertj.core.api.Assertions.assertThat;

import io.qubiq.buffer.RecoveryReport;
import io.qubiq.core.event.LossReason;
import io.qubiq.testkit.RecordingEvents;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What a channel makes of its buffer's recovery report when it starts. */
class ChannelLossesTest {

    private final RecordingEvents events = new RecordingEvents();
    private final ChannelLosses losses = new ChannelLosses("db", events, Clock.systemUTC());

    private static RecoveryReport reportOf(RecoveryReport.Finding finding) {
        return new RecoveryReport(false, 0, 1, 0, 0, List.of(finding), Duration.ZERO);
    }

    @Test
    void aDamagedHeaderThatDiscardedNoBytesAndNoCountedRecordsStillStartsTheChannelAndIsEnteredOnce() {
        // found by ChannelCrashTest (kill -9 during a segment roll): the loss was built with 0 items and
        // 0 bytes, DataLoss refused it, and the channel's start threw: the gateway could not start
        losses.recovered(reportOf(new RecoveryReport.Finding(RecoveryReport.Reason.CORRUPT_HEADER,
                Path.of("buffer/00000000000000000042.seg"), 0, 0, Optional.empty(), "header unreadable")));

        assertThat(events.losses()).singleElement().satisfies(loss -> {
            assertThat(loss.reason()).isEqualTo(LossReason.BUFFER_DAMAGED);
            assertThat(loss.items()).isZero();
            assertThat(loss.detail()).contains("header unreadable");
        });
    }

    @Test
    void aFindingThatCostNothingUnacknowledgedIsOnlyLogged() {
        losses.recovered(reportOf(new RecoveryReport.Finding(RecoveryReport.Reason.TORN_TAIL,
                Path.of("buffer/00000000000000000001.seg"), 4096, 40, Optional.empty(), "torn tail")));

        assertThat(events.losses()).isEmpty();
    }
}
