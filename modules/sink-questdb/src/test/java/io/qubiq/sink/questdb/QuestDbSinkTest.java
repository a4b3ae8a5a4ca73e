package io.qubiq.sink.questdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.qubiq.core.error.PermanentException;
import io.qubiq.core.health.ConnectionState;
import io.qubiq.core.sink.EncodedWrites;
import io.qubiq.testkit.questdb.ExecResult;
import io.qubiq.testkit.questdb.QuestDbExtension;
import io.qubiq.testkit.questdb.QuestDbServer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The sink against a real QuestDB (one server for the class); each test writes its own table. */
@ExtendWith(QuestDbExtension.class)
class QuestDbSinkTest {

    static QuestDbServer questDb;
    private QuestDbSink sink;

    @BeforeEach
    void openSink() throws Exception {
        sink = new QuestDbSink("historian", QuestDbSinkConfig.of(questDb.ilpAddress()));
    }

    @AfterEach
    void closeSink() {
        sink.close();
    }

    static ExecResult awaitRows(String sql, int count) {
        return await().atMost(Duration.ofSeconds(15)).ignoreExceptions()
                .until(() -> questDb.exec(sql), result -> result.size() == count);
    }

    @Test
    void rowsOfEveryColumnTypeLandWithTheirTypesAndNanosecondTimestamps() throws Exception {
        Instant t0 = Instant.parse("2026-03-04T05:06:07.123456789Z");
        QuestDbRow first = QuestDbRow.builder("typed", t0)
                .symbol("tag", "Line1/Motor/Speed")
                .symbol("quality", "good")
                .column("ok", true)
                .column("count", 9_007_199_254_740_993L)
                .column("small", 42)
                .column("value", 1234.5)
                .column("ratio", 0.25f)
                .column("text", "ünïcödé \"quoted\", with = signs")
                .column("source_time", Instant.parse("2026-03-04T05:06:06.987654321Z"))
                .build();
        QuestDbRow second = QuestDbRow.builder("typed", t0.plusSeconds(1))
                .symbol("tag", "Line1/Motor/Temp").symbol("quality", "bad")
                .column("ok", false).column("count", -1L).column("small", 0).column("value", -0.5)
                .column("ratio", 1.0).column("text", "").column("source_time", t0)
                .build();

        sink.write(List.of(first, second));

        ExecResult rows = awaitRows("select * from typed order by timestamp", 2);
        assertThat(rows.typeOf("tag")).isEqualTo("SYMBOL");
        assertThat(rows.typeOf("ok")).isEqualTo("BOOLEAN");
        assertThat(rows.typeOf("count")).isEqualTo("LONG");
        assertThat(rows.typeOf("small")).isEqualTo("LONG");
        assertThat(rows.typeOf("value")).isEqualTo("DOUBLE");
        assertThat(rows.typeOf("ratio")).isEqualTo("DOUBLE");
        assertThat(rows.typeOf("text")).isEqualTo("VARCHAR");
        assertThat(rows.typeOf("source_time")).isEqualTo("TIMESTAMP_NS");
        assertThat(rows.typeOf("timestamp")).isEqualTo("TIMESTAMP_NS");
        assertThat(rows.rowMaps().get(0)).containsEntry("tag", "Line1/Motor/Speed")
                .containsEntry("quality", "good")
                .containsEntry("ok", true)
                .containsEntry("count", 9_007_199_254_740_993L)
                .containsEntry("small", 42L)
                .containsEntry("value", 1234.5)
                .containsEntry("ratio", 0.25)
                .containsEntry("text", "ünïcödé \"quoted\", with = signs");
        assertThat(Instant.parse((String) rows.value(0, "timestamp"))).isEqualTo(t0);
        assertThat(Instant.parse((String) rows.value(0, "source_time")))
                .isEqualTo(Instant.parse("2026-03-04T05:06:06.987654321Z"));
        assertThat(rows.rowMaps().get(1)).containsEntry("ok", false).containsEntry("text", "")
                .containsEntry("value", -0.5);
        assertThat(Instant.parse((String) rows.value(1, "timestamp"))).isEqualTo(t0.plusSeconds(1));
    }

    @Test
    void aMicrosecondSinkStoresWhatTheNanosecondSinkStoresInMicrosecondColumns() throws Exception {
        questDb.exec("CREATE TABLE micro_a (ts TIMESTAMP, tag SYMBOL, source_ts TIMESTAMP) TIMESTAMP(ts)"
                + " PARTITION BY DAY WAL");
        questDb.exec("CREATE TABLE micro_b (ts TIMESTAMP, tag SYMBOL, source_ts TIMESTAMP) TIMESTAMP(ts)"
                + " PARTITION BY DAY WAL");
        Instant ts = Instant.parse("2026-03-04T05:06:07.123456789Z");
        Instant source = Instant.parse("1970-01-01T00:00:00.000000999Z");
        QuestDbSink micros = new QuestDbSink("micros", QuestDbSinkConfig.of(questDb.ilpAddress()),
                java.time.Clock.systemUTC(), TimestampPrecision.MICROS);
        try {
            micros.write(List.of(QuestDbRow.builder("micro_a", ts).symbol("tag", "a").column("source_ts", source)
                    .build()));
        } finally {
            micros.close();
        }
        sink.write(List.of(QuestDbRow.builder("micro_b", ts).symbol("tag", "a").column("source_ts", source)
                .build()));

        ExecResult a = awaitRows("select ts, source_ts from micro_a", 1);
        ExecResult b = awaitRows("select ts, source_ts from micro_b", 1);
        assertThat(a.typeOf("ts")).isEqualTo("TIMESTAMP");
        assertThat(a.rowMaps()).isEqualTo(b.rowMaps());
        assertThat(Instant.parse((String) a.value(0, "ts"))).isEqualTo(Instant.parse("2026-03-04T05:06:07.123456Z"));
        assertThat(Instant.parse((String) a.value(0, "source_ts"))).isEqualTo(Instant.EPOCH);
    }

    @Test
    void rowsWrittenFromTheirBytesLandExactlyAsTheDecodedRowsDo() throws Exception {
        QuestDbRowCodec codec = new QuestDbRowCodec();
        List<QuestDbRow> asRows = new ArrayList<>();
        List<byte[]> asBytes = new ArrayList<>();
        Instant t0 = Instant.parse("2026-03-04T05:06:07.123456789Z");
        // symbol values: plain ASCII, ASCII the line protocol must escape, and non-ASCII
        List<String> tags = List.of("Line1/Motor/1", "Line 1,Motor=2 \\ \"x\"", "Kühler/Motor/3");
        for (int i = 0; i < 50; i++) {
            for (String table : List.of("from_rows", "from_bytes")) {
                QuestDbRow row = QuestDbRow.builder(table, t0.plusMillis(i))
                        .symbol("tag", tags.get(i % 3)).symbol("quality", i % 2 == 0 ? "good" : "bad")
                        .column("ok", i % 2 == 0).column("count", (long) i * 1_000_000_007L).column("value", i / 7.0)
                        .column("text", "ünï \"" + i + "\"").column("source_time", t0.minusNanos(i))
                        .build();
                if (table.equals("from_rows")) {
                    asRows.add(row);
                } else {
                    asBytes.add(codec.encode(row));
                }
            }
        }

        sink.write(asRows);
        sink.writeEncoded(asBytes);

        String columns = "tag, quality, ok, count, value, text, source_time, timestamp";
        ExecResult fromRows = awaitRows("select " + columns + " from from_rows order by timestamp", 50);
        ExecResult fromBytes = awaitRows("select " + columns + " from from_bytes order by timestamp", 50);
        assertThat(fromBytes.rowMaps()).isEqualTo(fromRows.rowMaps());
        assertThat(fromBytes.typeOf("source_time")).isEqualTo(fromRows.typeOf("source_time"));
        assertThat(fromBytes.typeOf("timestamp")).isEqualTo("TIMESTAMP_NS");
    }

    @Test
    void aRowWrittenFromItsBytesThatQuestDbRefusesIsNamedByItsIndexAndNothingIsCommitted() throws Exception {
        QuestDbRowCodec codec = new QuestDbRowCodec();
        Instant t0 = Instant.parse("2026-01-01T00:00:00Z");
        sink.write(List.of(QuestDbRow.builder("strict_bytes", t0).symbol("tag", "a").column("v", 1L).build()));
        awaitRows("select * from strict_bytes", 1);
        List<byte[]> batch = List.of(
                codec.encode(QuestDbRow.builder("strict_bytes", t0.plusSeconds(1)).symbol("tag", "a").column("v", 2L)
                        .build()),
                codec.encode(QuestDbRow.builder("strict_bytes", t0.plusSeconds(2)).symbol("tag", "b").column("v", "two")
                        .build()));

        assertThatThrownBy(() -> sink.writeEncoded(batch)).isInstanceOf(PermanentException.class)
                .satisfies(e -> assertThat(((PermanentException) e).rejected())
                        .extracting(PermanentException.RejectedItem::index).containsExactly(1));

        sink.writeEncoded(batch.subList(0, 1));
        ExecResult rows = awaitRows("select v from strict_bytes order by timestamp", 2);
        assertThat(rows.rows()).extracting(row -> row.get(0)).containsExactly(1L, 2L);
    }

    @Test
    void aRowWhoseBytesDoNotDecodeIsRefusedByItsIndexAsUndecodableAndNothingOfTheBatchIsSent() throws Exception {
        QuestDbRowCodec codec = new QuestDbRowCodec();
        Instant t0 = Instant.parse("2026-01-01T00:00:00Z");
        byte[] first = codec.encode(QuestDbRow.builder("undecodable_bytes", t0).symbol("tag", "a").column("v", 1L).build());
        byte[] good = codec.encode(QuestDbRow.builder("undecodable_bytes", t0.plusSeconds(1)).symbol("tag", "b")
                .column("v", 2L).build());
        byte[] truncated = Arrays.copyOf(good, good.length - 2);
        sink.writeEncoded(List.of(first));
        awaitRows("select * from undecodable_bytes", 1);

        assertThatThrownBy(() -> sink.writeEncoded(List.of(good, truncated, good)))
                .isInstanceOf(PermanentException.class).hasMessageContaining("undecodable QuestDB row")
                .satisfies(e -> assertThat(((PermanentException) e).rejected()).singleElement()
                        .isEqualTo(new PermanentException.RejectedItem(1, EncodedWrites.UNDECODABLE)));

        sink.writeEncoded(List.of(good));
        ExecResult rows = awaitRows("select v from undecodable_bytes order by timestamp", 2);
        assertThat(rows.rows()).extracting(row -> row.get(0)).containsExactly(1L, 2L);
    }

    @Test
    void aMicrosecondSinkWritesTheSameFromBytesAsFromRows() throws Exception {
        questDb.exec("CREATE TABLE micro_rows (ts TIMESTAMP, tag SYMBOL, v DOUBLE, source_ts TIMESTAMP) TIMESTAMP(ts)"
                + " PARTITION BY DAY WAL");
        questDb.exec("CREATE TABLE micro_bytes (ts TIMESTAMP, tag SYMBOL, v DOUBLE, source_ts TIMESTAMP) TIMESTAMP(ts)"
                + " PARTITION BY DAY WAL");
        QuestDbRowCodec codec = new QuestDbRowCodec();
        Instant ts = Instant.parse("2026-03-04T05:06:07.123456789Z");
        Instant source = Instant.parse("1969-12-31T23:59:59.999999999Z");
        QuestDbSink micros = new QuestDbSink("micros", QuestDbSinkConfig.of(questDb.ilpAddress()),
                java.time.Clock.systemUTC(), TimestampPrecision.MICROS);
        try {
            micros.write(List.of(QuestDbRow.builder("micro_rows", ts).symbol("tag", "a").column("v", 2.5)
                    .column("source_ts", source).build()));
            micros.writeEncoded(List.of(codec.encode(QuestDbRow.builder("micro_bytes", ts).symbol("tag", "a")
                    .column("v", 2.5).column("source_ts", source).build())));
        } finally {
            micros.close();
        }

        ExecResult rows = awaitRows("select ts, tag, v, source_ts from micro_rows", 1);
        ExecResult bytes = awaitRows("select ts, tag, v, source_ts from micro_bytes", 1);
        assertThat(bytes.rowMaps()).isEqualTo(rows.rowMaps());
    }

    @Test
    void aStringIntoALongColumnIsPermanentNamesTheRowAndCommitsNothing() throws Exception {
        Instant t0 = Instant.parse("2026-01-01T00:00:00Z");
        sink.write(List.of(QuestDbRow.builder("strict", t0).symbol("tag", "a").column("v", 1L).build()));
        awaitRows("select * from strict", 1);
        List<QuestDbRow> batch = List.of(
                QuestDbRow.builder("strict", t0.plusSeconds(1)).symbol("tag", "a").column("v", 2L).build(),
                QuestDbRow.builder("strict", t0.plusSeconds(2)).symbol("tag", "b").column("v", "two").build(),
                QuestDbRow.builder("strict", t0.plusSeconds(3)).symbol("tag", "c").column("v", 3L).build());

        assertThatThrownBy(() -> sink.write(batch))
                .isInstanceOf(PermanentException.class)
                .satisfies(e -> {
                    PermanentException p = (PermanentException) e;
                    assertThat(p.rejected()).extracting(PermanentException.RejectedItem::index).containsExactly(1);
                    assertThat(p.rejected().get(0).reason()).contains("cast error");
                    assertThat(p.othersWritten()).isFalse();
                });

        // The sink recovers with a fresh client: the good rows go through, and only they are stored.
        sink.write(List.of(batch.get(0), batch.get(2)));
        ExecResult rows = awaitRows("select v from strict order by timestamp", 3);
        assertThat(rows.rows()).extracting(row -> row.get(0)).containsExactly(1L, 2L, 3L);
    }

    @Test
    void aBatchSpanningTablesIsRejectedAsAWhole() throws Exception {
        Instant t0 = Instant.parse("2026-01-01T00:00:00Z");
        sink.write(List.of(QuestDbRow.builder("typed_a", t0).column("v", 1L).build()));
        awaitRows("select * from typed_a", 1);
        List<QuestDbRow> batch = List.of(
                QuestDbRow.builder("other_b", t0).column("v", 1L).build(),
                QuestDbRow.builder("typed_a", t0.plusSeconds(1)).column("v", 1.5).build());

        assertThatThrownBy(() -> sink.write(batch)).isInstanceOf(PermanentException.class)
                .satisfies(e -> assertThat(((PermanentException) e).rejected())
                        .extracting(PermanentException.RejectedItem::index).containsExactly(1));

        sink.write(List.of(QuestDbRow.builder("typed_a", t0.plusSeconds(2)).column("v", 2L).build()));
        awaitRows("select * from typed_a", 2);
        assertThat(questDb.exec("select count() n from other_b").value(0, "n")).isEqualTo(0L);
    }

    @Test
    void aLargeBatchIsOneRequestAndLandsCompletely() throws Exception {
        Instant t0 = Instant.parse("2026-02-01T00:00:00Z");
        List<QuestDbRow> batch = new ArrayList<>();
        for (int i = 0; i < 5000; i++) {
            batch.add(QuestDbRow.builder("bulk", t0.plusMillis(i)).symbol("tag", "tag" + (i % 10))
                    .column("value", i * 0.5).build());
        }

        sink.write(batch);

        await().atMost(Duration.ofSeconds(15)).ignoreExceptions()
                .until(() -> questDb.exec("select count() n from bulk").value(0, "n"), count -> count.equals(5000L));
    }

    @Test
    void probeIsUpAgainstARunningServerAndWritesNothing() {
        assertThat(sink.probe().state()).isEqualTo(ConnectionState.UP);
        assertThat(sink.probe().lastError()).isEmpty();
    }
}
