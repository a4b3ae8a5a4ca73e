package io.qubiq.historian;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.qubiq.core.tag.DataType;
import io.qubiq.core.tag.Quality;
import io.qubiq.core.tag.TagPath;
import io.qubiq.core.tag.TagValue;
import io.qubiq.historian.query.HistoryRequest;
import io.qubiq.historian.query.Point;
import io.qubiq.sink.questdb.QuestDbRow;
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

/**
 * What identifies a stored sample, against a real QuestDB: the same gateway, tag, timestamp, value
 * and quality is one sample, stored once however often it is written; anything else at the same
 * timestamp is another sample and is kept. Each test would catch dedup keys that collapse distinct
 * samples (the old {@code (ts, tag)}) or keys too wide to absorb a replay.
 */
@ExtendWith(QuestDbExtension.class)
class HistorianSampleIdentityTest {

    static QuestDbServer questDb;
    static final Instant T0 = Instant.parse("2026-04-01T08:00:00Z");

    @TempDir
    Path dir;

    @Test
    void samplesOfOneTagThatShareATimestampButDifferInValueOrQualityAreAllStoredAndQueried() throws Exception {
        try (HistorianHarness h = new HistorianHarness(questDb, dir, HistorianHarness.config("same_ts")).start()) {
            TagPath tag = TagPath.of("press/force");
            // a device that stamps in whole seconds: ten different values share each timestamp
            for (int i = 0; i < 100; i++) {
                h.bus.publish(TagValue.good(tag, (double) i, T0.plusSeconds(i / 10)));
            }
            h.bus.publish(new TagValue(tag, 99.0, DataType.FLOAT64, Quality.UNCERTAIN, T0.plusSeconds(9),
                    T0.plusSeconds(9)));

            await().atMost(Duration.ofSeconds(20)).until(() -> h.count("same_ts_double") == 101
                    && walApplied("same_ts_double"));
            assertThat(questDb.exec("SELECT count() FROM same_ts_double WHERE ts = '2026-04-01T08:00:03.000000Z'")
                    .value(0, "count()")).isEqualTo(10L);

            List<Point> points = h.query().run(HistoryRequest.raw(List.of(tag), T0, T0.plusSeconds(60))).get(0)
                    .points();
            assertThat(points).hasSize(101);
            assertThat(points).extracting(Point::value).containsAll(List.of(0.0, 1.0, 9.0, 42.0, 99.0));
            assertThat(points).filteredOn(p -> p.ts().equals(T0.plusSeconds(9)))
                    .extracting(Point::quality).contains(Quality.GOOD, Quality.UNCERTAIN);
        }
    }

    @Test
    void theSameSampleWrittenAgainIsStoredOnce() throws Exception {
        HistorianConfig config = HistorianHarness.config("replayed")
                .withRules(StorageRule.defaults().withMode(StorageMode.ALWAYS), List.of());
        try (HistorianHarness h = new HistorianHarness(questDb, dir, config).start()) {
            List<QuestDbRow> rows = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                rows.add(h.historian.rows().row(HistorySample.of(TagValue.good(TagPath.of("r/" + (i % 2)),
                        (double) i, T0.plusSeconds(i / 4)))));
            }
            h.channel.submit(rows); // the first write
            h.channel.submit(rows); // the channel replaying its unacknowledged tail after a crash
            TagValue redelivered = TagValue.good(TagPath.of("r/mqtt"), 7.5, T0);
            h.bus.publish(redelivered); // an MQTT QoS 1 redelivery, a repeated OPC UA notification
            h.bus.publish(redelivered);

            await().atMost(Duration.ofSeconds(20)).until(() -> h.channelStatus().itemsDelivered() >= 82
                    && walApplied("replayed_double"));
            assertThat(h.count("replayed_double")).isEqualTo(41);
        }
    }

    @Test
    void aTableOfTheOldSchemaIsMigratedAtStartAndKeepsItsRows() throws Exception {
        questDb.exec("CREATE TABLE legacy_double (ts TIMESTAMP, tag SYMBOL, value DOUBLE, quality LONG,"
                + " source_ts TIMESTAMP, server_ts TIMESTAMP) TIMESTAMP(ts) PARTITION BY DAY WAL"
                + " DEDUP UPSERT KEYS(ts, tag)");
        questDb.exec("INSERT INTO legacy_double VALUES ('2026-04-01T07:00:00.000000Z', 'old/tag', 1.5, 0,"
                + " '2026-04-01T07:00:00.000000Z', '2026-04-01T07:00:00.000000Z'),"
                + " ('2026-04-01T07:00:01.000000Z', 'old/tag', 2.5, 0,"
                + " '2026-04-01T07:00:01.000000Z', '2026-04-01T07:00:01.000000Z')");
        await().atMost(Duration.ofSeconds(20)).until(() -> walApplied("legacy_double")
                && count("legacy_double") == 2);

        try (HistorianHarness h = new HistorianHarness(questDb, dir, HistorianHarness.config("legacy")).start()) {
            assertThat(questDb.exec("SELECT \"column\" FROM table_columns('legacy_double') WHERE upsertKey")
                    .rows()).extracting(row -> row.get(0)).containsExactlyInAnyOrder("ts", "gateway", "tag", "value",
                    "quality");
            TagPath tag = TagPath.of("old/tag");
            h.bus.publish(TagValue.good(tag, 3.5, T0));
            h.bus.publish(TagValue.good(tag, 4.5, T0));

            await().atMost(Duration.ofSeconds(20)).until(() -> h.count("legacy_double") == 4
                    && walApplied("legacy_double"));
            assertThat(h.query().raw(List.of(tag), T0.minusSeconds(3600), T0.plusSeconds(1)).get(0).points())
                    .extracting(Point::value).containsExactly(1.5, 2.5, 3.5, 4.5);
            assertThat(questDb.exec("SELECT gateway FROM legacy_double ORDER BY ts").rows())
                    .extracting(row -> row.get(0)).containsExactly(null, null, "test-gateway", "test-gateway");
            assertThat(h.historian.schema().create(h.exec)).as("a migrated table is left alone next time").isEmpty();
        }
    }

    @Test
    void migrationReportsEachChangeItMakes() throws Exception {
        questDb.exec("CREATE TABLE report_long (ts TIMESTAMP, tag SYMBOL, value LONG, quality LONG,"
                + " source_ts TIMESTAMP, server_ts TIMESTAMP) TIMESTAMP(ts) PARTITION BY DAY WAL"
                + " DEDUP UPSERT KEYS(ts, tag)");
        HistorySchema schema = new HistorySchema("report", PartitionUnit.DAY, 0);
        var exec = HistorianChannels.execClient(HistorianHarness.config("report"),
                io.qubiq.sink.questdb.QuestDbSinkConfig.of(questDb.ilpAddress()));

        assertThat(schema.create(exec)).containsExactly("report_long: added column gateway",
                "report_long: dedup keys (ts, tag) -> (ts, gateway, tag, value, quality)");
        assertThat(schema.create(exec)).isEmpty();
    }

    @Test
    void twoGatewaysWritingIntoOneQuestDbKeepEachOthersSamples() throws Exception {
        HistorianConfig config = HistorianHarness.config("shared");
        try (HistorianHarness line1 = new HistorianHarness(questDb, dir.resolve("line1"), config, "line-1").start();
             HistorianHarness line2 = new HistorianHarness(questDb, dir.resolve("line2"), config, "line-2").start()) {
            // both read the same PLC tag: identical samples, one from each gateway
            for (int i = 0; i < 10; i++) {
                TagValue value = TagValue.good(TagPath.of("plc/speed"), (double) i, T0.plusSeconds(i));
                line1.bus.publish(value);
                line2.bus.publish(value);
            }

            await().atMost(Duration.ofSeconds(20)).until(() -> line1.count("shared_double") == 20
                    && walApplied("shared_double"));
            assertThat(questDb.exec("SELECT gateway, count() FROM shared_double ORDER BY gateway").rows())
                    .containsExactly(List.of("line-1", 10L), List.of("line-2", 10L));
            assertThat(line1.query().raw(List.of(TagPath.of("plc/speed")), T0, T0.plusSeconds(60)).get(0).points())
                    .as("the same sample from two gateways is one point of a trend").hasSize(10);
        }
    }

    private static boolean walApplied(String table) {
        var wal = questDb.exec("SELECT writerTxn, sequencerTxn FROM wal_tables() WHERE name = '" + table + "'");
        return wal.size() == 1 && wal.value(0, "writerTxn").equals(wal.value(0, "sequencerTxn"));
    }

    private static long count(String table) {
        return ((Number) questDb.exec("SELECT count() FROM " + table).value(0, "count()")).longValue();
    }
}
