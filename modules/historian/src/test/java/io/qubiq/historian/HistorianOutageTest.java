package io.qubiq.historian;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.qubiq.core.tag.TagPath;
import io.qubiq.core.tag.TagValue;
import io.qubiq.storeforward.ChannelStatus;
import io.qubiq.testkit.questdb.ExecResult;
import io.qubiq.testkit.questdb.QuestDbExtension;
import io.qubiq.testkit.questdb.QuestDbServer;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

@ExtendWith(QuestDbExtension.class)
class HistorianOutageTest {

    static QuestDbServer questDb;
    static final Instant T0 = Instant.parse("2026-04-01T00:00:00Z");

    @TempDir
    Path dir;

    @Test
    void questDbStoppedMidStreamAndRestartedLosesNothingKeepsOrderAndDrainsTheChannel() throws Exception {
        TagPath tag = TagPath.of("line/speed");
        try (HistorianHarness h = new HistorianHarness(questDb, dir, HistorianHarness.config("outage")).start()) {
            for (int i = 0; i < 300; i++) {
                h.bus.publish(TagValue.good(tag, (long) i, T0.plusMillis(i * 10L)));
            }
            await().atMost(Duration.ofSeconds(20)).until(() -> h.count("outage_long") == 300);

            questDb.stop();
            for (int i = 300; i < 900; i++) {
                h.bus.publish(TagValue.good(tag, (long) i, T0.plusMillis(i * 10L)));
            }
            await().atMost(Duration.ofSeconds(20)).until(() -> h.historian.status().rowsSubmitted() == 900);
            // rows are handed to the forwarder in memory first and buffered once it meets the outage
            await("buffered while QuestDB is down").atMost(Duration.ofSeconds(20))
                    .until(() -> h.channelStatus().bufferedItems() > 0);

            questDb.restart();
            for (int i = 900; i < 1000; i++) {
                h.bus.publish(TagValue.good(tag, (long) i, T0.plusMillis(i * 10L)));
            }

            await().atMost(Duration.ofSeconds(40)).until(() -> {
                ChannelStatus status = h.channelStatus();
                return status.bufferedItems() == 0 && status.itemsDelivered() == 1000;
            });
            await().atMost(Duration.ofSeconds(20)).until(() -> h.count("outage_long") == 1000);
            ExecResult rows = questDb.exec("SELECT value FROM outage_long ORDER BY ts");
            List<Long> values = new ArrayList<>();
            rows.rows().forEach(r -> values.add((Long) r.get(0)));
            List<Long> expected = new ArrayList<>();
            for (long i = 0; i < 1000; i++) {
                expected.add(i);
            }
            assertThat(values).isEqualTo(expected);
            assertThat(h.channelStatus().itemsDropped()).isZero();
            assertThat(h.channelStatus().itemsQuarantined()).isZero();
            assertThat(h.historian.status().rowsRejected()).isZero();
            assertThat(h.historian.status().queueDropped()).isZero();
        }
    }
}
