package io.qubiq.historian;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.qubiq.core.tag.DataType;
import io.qubiq.core.tag.Quality;
import io.qubiq.core.tag.TagPath;
import io.qubiq.core.tag.TagValue;
import io.qubiq.historian.query.Aggregation;
import io.qubiq.historian.query.HistoryRequest;
import io.qubiq.historian.query.Point;
import io.qubiq.historian.query.ResultTooLargeException;
import io.qubiq.historian.query.Series;
import io.qubiq.sink.questdb.QuestDbRow;
import io.qubiq.testkit.questdb.ExecResult;
import io.qubiq.testkit.questdb.QuestDbExtension;
import io.qubiq.testkit.questdb.QuestDbServer;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

@ExtendWith(QuestDbExtension.class)
class HistorianStorageTest {

    static QuestDbServer questDb;
    static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

    @TempDir
    Path dir;

    @Test
    void rowsLandWithTheRightTypesAndTimestampsForEveryDataType() throws Exception {
        try (HistorianHarness h = new HistorianHarness(questDb, dir, HistorianHarness.config("types")).start()) {
            Instant source = T0.plusNanos(123_456_000);
            Instant server = T0.plusSeconds(2);
            Map<String, TagValue> values = Map.of(
                    "bool", new TagValue(TagPath.of("t/bool"), true, DataType.BOOLEAN, Quality.GOOD, source, server),
                    "int32", new TagValue(TagPath.of("t/int32"), -42, DataType.INT32, Quality.GOOD, source, server),
                    "int64", new TagValue(TagPath.of("t/int64"), 1L << 40, DataType.INT64, Quality.UNCERTAIN, source,
                            server),
                    "float32", new TagValue(TagPath.of("t/float32"), 1.5f, DataType.FLOAT32, Quality.GOOD, source,
                            server),
                    "float64", new TagValue(TagPath.of("t/float64"), 2.25, DataType.FLOAT64, Quality.BAD, source, server),
                    "string", new TagValue(TagPath.of("t/string"), "läuft 'ok'", DataType.STRING, Quality.GOOD, source,
                            server),
                    "datetime", new TagValue(TagPath.of("t/datetime"), Instant.parse("2025-12-24T18:00:00Z"),
                            DataType.DATETIME, Quality.GOOD, source, server));
            values.values().forEach(h.bus::publish);

            await().atMost(Duration.ofSeconds(20)).until(() -> h.count(h.table(ValueTable.DOUBLE)) == 2
                    && h.count(h.table(ValueTable.LONG)) == 2 && h.count(h.table(ValueTable.BOOL)) == 1
                    && h.count(h.table(ValueTable.STRING)) == 1 && h.count(h.table(ValueTable.TIME)) == 1);

            ExecResult doubles = questDb.exec("SELECT * FROM types_double ORDER BY tag");
            assertThat(doubles.typeOf("ts")).isEqualTo("TIMESTAMP");
            assertThat(doubles.typeOf("tag")).isEqualTo("SYMBOL");
            assertThat(doubles.typeOf("value")).isEqualTo("DOUBLE");
            assertThat(doubles.typeOf("quality")).isEqualTo("LONG");
            assertThat(doubles.typeOf("source_ts")).isEqualTo("TIMESTAMP");
            assertThat(doubles.typeOf("server_ts")).isEqualTo("TIMESTAMP");
            assertThat(doubles.rowMaps()).extracting(r -> r.get("tag"), r -> r.get("value"), r -> r.get("quality"))
                    .containsExactly(
                            org.assertj.core.groups.Tuple.tuple("t/float32", 1.5, 0L),
                            org.assertj.core.groups.Tuple.tuple("t/float64", 2.25, 0x80000000L));
            assertThat(doubles.value(0, "ts")).isEqualTo("2026-03-01T10:00:00.123456Z");
            assertThat(doubles.value(0, "source_ts")).isEqualTo("2026-03-01T10:00:00.123456Z");
            assertThat(doubles.value(0, "server_ts")).isEqualTo("2026-03-01T10:00:02.000000Z");

            ExecResult longs = questDb.exec("SELECT tag, value, quality FROM types_long ORDER BY tag");
            assertThat(longs.typeOf("value")).isEqualTo("LONG");
            assertThat(longs.rows()).containsExactly(List.of("t/int32", -42L, 0L),
                    List.of("t/int64", 1L << 40, (long) 0x40000000));
            ExecResult bools = questDb.exec("SELECT tag, value FROM types_bool");
            assertThat(bools.typeOf("value")).isEqualTo("BOOLEAN");
            assertThat(bools.rows()).containsExactly(List.of("t/bool", true));
            ExecResult strings = questDb.exec("SELECT tag, value FROM types_string");
            assertThat(strings.typeOf("value")).isEqualTo("VARCHAR");
            assertThat(strings.rows()).containsExactly(List.of("t/string", "läuft 'ok'"));
            ExecResult times = questDb.exec("SELECT tag, value FROM types_time");
            assertThat(times.typeOf("value")).isEqualTo("TIMESTAMP");
            assertThat(times.rows()).containsExactly(List.of("t/datetime", "2025-12-24T18:00:00.000000Z"));

            List<Series> series = h.query().run(HistoryRequest.raw(List.of(TagPath.of("t/int32"),
                    TagPath.of("t/datetime")), T0, T0.plusSeconds(1)));
            assertThat(series.get(0).points()).containsExactly(new Point(T0.plusNanos(123_456_000), -42L, Quality.GOOD));
            assertThat(series.get(1).points()).extracting(Point::value)
                    .containsExactly(Instant.parse("2025-12-24T18:00:00Z"));
        }
    }

    @Test
    void replayedSamplesWriteNoDuplicateRows() throws Exception {
        try (HistorianHarness h = new HistorianHarness(questDb, dir, HistorianHarness.config("replay")).start()) {
            List<QuestDbRow> rows = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                rows.add(h.historian.rows().row(HistorySample.of(TagValue.good(TagPath.of("r/" + (i % 4)),
                        (double) i, T0.plusMillis(i)))));
            }

            h.channel.submit(rows);
            h.channel.submit(rows.subList(50, 200));
            h.channel.submit(rows);

            await().atMost(Duration.ofSeconds(20)).until(() -> h.channelStatus().itemsDelivered() == 550
                    && walApplied("replay_double"));
            assertThat(h.count("replay_double")).isEqualTo(200);
            assertThat(questDb.exec("SELECT count() FROM (SELECT DISTINCT ts, tag FROM replay_double)")
                    .value(0, "count()")).as("one row per key").isEqualTo(200L);
        }
    }

    @Test
    void historyQuerySpanningStoredRowsAndTheLiveTailReturnsEachSampleOnce() throws Exception {
        try (HistorianHarness h = new HistorianHarness(questDb, dir, HistorianHarness.config("tail")).start()) {
            TagPath tag = TagPath.of("plant/flow");
            for (int i = 0; i < 10; i++) {
                h.bus.publish(TagValue.good(tag, (double) i, T0.plusSeconds(i)));
            }
            await().atMost(Duration.ofSeconds(20)).until(() -> h.count("tail_double") == 10);
            // samples the historian accepted but QuestDB has not got yet: only in the live tail
            for (int i = 10; i < 13; i++) {
                h.historian.liveTail().add(HistorySample.of(TagValue.good(tag, (double) i, T0.plusSeconds(i))));
            }

            List<Series> series = h.query().run(HistoryRequest.raw(List.of(tag), T0, T0.plusSeconds(60)));

            assertThat(series).hasSize(1);
            assertThat(series.get(0).points()).extracting(Point::value)
                    .containsExactly(0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0);
            assertThat(h.historian.liveTail().samples(tag, T0, T0.plusSeconds(60))).hasSize(13);
            assertThat(h.query().run(HistoryRequest.raw(List.of(tag), T0.plusSeconds(3), T0.plusSeconds(11)))
                    .get(0).points()).extracting(Point::value)
                    .containsExactly(3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0);
        }
    }

    @Test
    void aggregatesAreComputedPerIntervalWithSampleBy() throws Exception {
        try (HistorianHarness h = new HistorianHarness(questDb, dir, HistorianHarness.config("agg")).start()) {
            TagPath a = TagPath.of("agg/a");
            TagPath b = TagPath.of("agg/b");
            for (int i = 0; i < 120; i++) {
                h.bus.publish(TagValue.good(a, (double) i, T0.plusSeconds(i)));
                h.bus.publish(TagValue.good(b, (long) i * 2, T0.plusSeconds(i)));
            }
            await().atMost(Duration.ofSeconds(20)).until(() -> h.count("agg_double") == 120
                    && h.count("agg_long") == 120);

            List<Series> avg = h.query().aggregate(List.of(a, b), T0, T0.plusSeconds(120), Duration.ofMinutes(1),
                    Aggregation.AVG);
            assertThat(avg.get(0).points()).containsExactly(new Point(T0, 29.5, Quality.GOOD),
                    new Point(T0.plusSeconds(60), 89.5, Quality.GOOD));
            assertThat(avg.get(1).points()).extracting(Point::value).containsExactly(59.0, 179.0);

            assertThat(h.query().aggregate(List.of(a), T0, T0.plusSeconds(120), Duration.ofMinutes(1),
                    Aggregation.MAX).get(0).points()).extracting(Point::value).containsExactly(59.0, 119.0);
            assertThat(h.query().aggregate(List.of(b), T0, T0.plusSeconds(120), Duration.ofMinutes(1),
                    Aggregation.MIN).get(0).points()).extracting(Point::value).containsExactly(0L, 120L);
            assertThat(h.query().aggregate(List.of(a), T0, T0.plusSeconds(120), Duration.ofSeconds(30),
                    Aggregation.COUNT).get(0).points()).extracting(Point::value).containsExactly(30L, 30L, 30L, 30L);
            assertThat(h.query().aggregate(List.of(a), T0, T0.plusSeconds(120), Duration.ofMinutes(1),
                    Aggregation.FIRST).get(0).points()).extracting(Point::value).containsExactly(0.0, 60.0);
            assertThat(h.query().run(HistoryRequest.aggregate(List.of(a), T0, T0.plusSeconds(120),
                    Duration.ofMinutes(1), Aggregation.LAST)).get(0).points()).extracting(Point::value)
                    .containsExactly(59.0, 119.0);
        }
    }

    @Test
    void queryBeyondTheResultLimitFailsNamingTheLimitAndHowToNarrowIt() throws Exception {
        HistorianConfig config = HistorianHarness.config("limit").withMaxResultRows(50);
        try (HistorianHarness h = new HistorianHarness(questDb, dir, config).start()) {
            TagPath tag = TagPath.of("limit/x");
            for (int i = 0; i < 60; i++) {
                h.bus.publish(TagValue.good(tag, (double) i, T0.plusSeconds(i)));
            }
            await().atMost(Duration.ofSeconds(20)).until(() -> h.count("limit_double") == 60);

            assertThat(h.query().raw(List.of(tag), T0, T0.plusSeconds(50)).get(0).points()).hasSize(50);
            assertThatThrownBy(() -> h.query().raw(List.of(tag), T0, T0.plusSeconds(60)))
                    .isInstanceOf(ResultTooLargeException.class)
                    .hasMessageContaining("limit of 50 (historian max_result_rows)")
                    .hasMessageContaining("shorter time range");
            assertThatThrownBy(() -> h.query().aggregate(List.of(tag), T0, T0.plus(Duration.ofDays(1)),
                    Duration.ofMinutes(1), Aggregation.AVG))
                    .isInstanceOf(ResultTooLargeException.class)
                    .hasMessageContaining("up to 1441 points")
                    .hasMessageContaining("longer interval")
                    .satisfies(e -> assertThat(((ResultTooLargeException) e).limit()).isEqualTo(50));
        }
    }

    static boolean walApplied(String table) {
        ExecResult wal = questDb.exec("SELECT writerTxn, sequencerTxn FROM wal_tables() WHERE name = '" + table + "'");
        return wal.size() == 1 && wal.value(0, "writerTxn").equals(wal.value(0, "sequencerTxn"));
    }
}
