package io.qubiq.app.losses;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.qubiq.app.metrics.LossCounters;
import io.qubiq.core.event.DataLoss;
import io.qubiq.core.event.LossReason;
import io.qubiq.losses.LossQuery;
import io.qubiq.losses.LossesConfig;
import io.qubiq.testkit.RecordingEvents;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LossRecorderTest {

    @TempDir
    Path dir;

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final RecordingEvents alarms = new RecordingEvents();

    private LossRecorder recorder() {
        return new LossRecorder(LossesConfig.defaults(), dir.resolve("losses"), new LossCounters(registry), alarms,
                Clock.systemUTC());
    }

    private static DataLoss damaged(long items) {
        return DataLoss.of(Instant.now(), "channel", "db", LossReason.BUFFER_DAMAGED, items, items * 10,
                "segment 7 offset 4096 failed its CRC32C");
    }

    @Test
    void aLossReportedBeforeTheLedgerOpensIsRecordedWhenItDoes() throws Exception {
        LossRecorder recorder = recorder();
        recorder.record(damaged(21));
        assertThat(recorder.query(LossQuery.all())).isEmpty();
        recorder.start();
        try {
            recorder.flush();
            assertThat(recorder.query(LossQuery.all()).orElseThrow().totalItems()).isEqualTo(21);
        } finally {
            recorder.stop();
        }
    }

    @Test
    void lossesRecordedUntilStopAreThereAfterARestartAndCountedInTheMetrics() throws Exception {
        LossRecorder first = recorder();
        first.start();
        first.record(damaged(3));
        first.record(damaged(4));
        first.stop();
        assertThat(registry.scrape()).contains("qubiq_data_lost_items_total{component=\"channel\",connection=\"db\","
                + "reason=\"buffer_damaged\"} 7.0").contains("qubiq_data_lost_bytes_total{component=\"channel\","
                + "connection=\"db\",reason=\"buffer_damaged\"} 70.0");

        LossRecorder second = recorder();
        second.start();
        try {
            assertThat(second.query(LossQuery.all()).orElseThrow().entries()).singleElement().satisfies(entry -> {
                assertThat(entry.items()).isEqualTo(7);
                assertThat(entry.reports()).isEqualTo(2);
                assertThat(entry.detail()).contains("CRC32C");
            });
        } finally {
            second.stop();
        }
    }
}
