package io.qubiq.losses;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qubiq.core.event.DataLoss;
import io.qubiq.core.event.LossReason;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LossLedgerTest {

    private static final Instant NIGHT = Instant.parse("2026-11-30T02:15:10Z");

    @TempDir
    Path dir;

    private static DataLoss dropped(Instant at, String connection, long items) {
        return DataLoss.of(at, "channel", connection, LossReason.DROP_OLDEST, items, items * 100,
                "buffer at its limit");
    }

    @Test
    void theLedgerIsReadableByTheGatewaysUserOnly() throws IOException {
        org.junit.jupiter.api.Assumptions.assumeTrue(io.qubiq.fileops.OwnerOnly.POSIX);
        Path ledgerDir = dir.resolve("losses");
        try (LossLedger ledger = LossLedger.open(ledgerDir, LossLedger.DEFAULT_MAX_BYTES)) {
            ledger.record(dropped(NIGHT, "db", 5));
        }
        assertThat(java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(ledgerDir)))
                .isEqualTo("rwx------");
        try (Stream<Path> files = Files.list(ledgerDir)) {
            List<Path> days = files.filter(Files::isRegularFile).toList();
            assertThat(days).isNotEmpty();
            for (Path day : days) {
                assertThat(java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(day)))
                        .as(day.toString()).isEqualTo("rw-------");
            }
        }
    }

    @Test
    void lossesRecordedAndFlushedAreReadBackAfterReopen() throws IOException {
        try (LossLedger ledger = LossLedger.open(dir, LossLedger.DEFAULT_MAX_BYTES)) {
            ledger.record(dropped(NIGHT, "db", 5).withSequences(100, 104));
            ledger.record(DataLoss.of(NIGHT, "quarantine", "db", LossReason.OPERATOR_DROP, 2, 40, "dropped")
                    .by("alice"));
        }
        try (LossLedger reopened = LossLedger.open(dir, LossLedger.DEFAULT_MAX_BYTES)) {
            LossReport report = reopened.query(LossQuery.all());
            assertThat(report.entries()).hasSize(2);
            LossEntry drop = report.entries().stream().filter(e -> e.reason() == LossReason.DROP_OLDEST)
                    .findFirst().orElseThrow();
            assertThat(drop.items()).isEqualTo(5);
            assertThat(drop.bytes()).isEqualTo(500);
            assertThat(drop.firstSequence()).isEqualTo(100);
            assertThat(drop.lastSequence()).isEqualTo(104);
            assertThat(drop.minute()).isEqualTo(Instant.parse("2026-11-30T02:15:00Z"));
            LossEntry operator = report.entries().stream().filter(e -> e.reason() == LossReason.OPERATOR_DROP)
                    .findFirst().orElseThrow();
            assertThat(operator.who()).contains("alice");
            assertThat(report.damage()).isEqualTo(LedgerDamage.NONE);
        }
    }

    @Test
    void aStormOfLossesInOneMinuteIsOneEntryAndOneRecordPerFlush() throws IOException {
        try (LossLedger ledger = LossLedger.open(dir, LossLedger.DEFAULT_MAX_BYTES)) {
            for (int i = 0; i < 100_000; i++) {
                ledger.record(dropped(NIGHT.plusMillis(i % 30_000), "historian", 1).withSequences(i + 1, i + 1));
            }
            assertThat(ledger.flush()).isEqualTo(1);
            LossReport report = ledger.query(LossQuery.all());
            assertThat(report.entries()).singleElement().satisfies(entry -> {
                assertThat(entry.items()).isEqualTo(100_000);
                assertThat(entry.reports()).isEqualTo(100_000);
                assertThat(entry.firstSequence()).isEqualTo(1);
                assertThat(entry.lastSequence()).isEqualTo(100_000);
            });
            long oneRecord = ledger.bytesOnDisk();
            assertThat(oneRecord).isLessThan(300);
        }
    }

    @Test
    void sumsWrittenInSeveralFlushesAreAddedUpOnRead() throws IOException {
        try (LossLedger ledger = LossLedger.open(dir, LossLedger.DEFAULT_MAX_BYTES)) {
            ledger.record(dropped(NIGHT, "db", 3));
            ledger.flush();
            ledger.record(dropped(NIGHT.plusSeconds(20), "db", 4));
            ledger.flush();
            ledger.record(dropped(NIGHT.plusSeconds(30), "db", 1));
            LossReport report = ledger.query(LossQuery.all());
            assertThat(report.entries()).singleElement().satisfies(entry -> {
                assertThat(entry.items()).isEqualTo(8);
                assertThat(entry.firstAt()).isEqualTo(NIGHT);
                assertThat(entry.lastAt()).isEqualTo(NIGHT.plusSeconds(30));
            });
        }
    }

    @Test
    void queriesFilterByTimeConnectionAndReasonAndTotalEachDay() throws IOException {
        try (LossLedger ledger = LossLedger.open(dir, LossLedger.DEFAULT_MAX_BYTES)) {
            ledger.record(dropped(NIGHT, "db", 3));
            ledger.record(dropped(NIGHT.plusSeconds(3600), "db", 4));
            ledger.record(dropped(NIGHT.plusSeconds(86_400), "db", 10));
            ledger.record(dropped(NIGHT, "mqtt", 7));
            ledger.record(DataLoss.of(NIGHT, "tag-bus", "historian", LossReason.TAG_BUS_OVERFLOW, 20, 0, "queue full"));
            ledger.flush();

            LossReport all = ledger.query(LossQuery.all());
            assertThat(all.totals()).containsExactly(
                    new DayTotal(LocalDate.parse("2026-12-01"), 10, 1000, 1),
                    new DayTotal(LocalDate.parse("2026-11-30"), 34, 1400, 4));
            assertThat(all.entries().get(0).minute()).isEqualTo(Instant.parse("2026-12-01T02:15:00Z"));

            LossReport lastNight = ledger.query(LossQuery.all()
                    .between(Instant.parse("2026-11-30T00:00:00Z"), Instant.parse("2026-11-30T03:00:00Z")));
            assertThat(lastNight.totalItems()).isEqualTo(30);

            assertThat(ledger.query(LossQuery.all().forConnection("db")).totalItems()).isEqualTo(17);
            assertThat(ledger.query(LossQuery.all().because(LossReason.TAG_BUS_OVERFLOW)).entries())
                    .singleElement().extracting(LossEntry::connection).isEqualTo("historian");
        }
    }

    @Test
    void nothingLostAnswersNoEntriesAndNoTotals() throws IOException {
        try (LossLedger ledger = LossLedger.open(dir, LossLedger.DEFAULT_MAX_BYTES)) {
            LossReport report = ledger.query(LossQuery.all());
            assertThat(report.entries()).isEmpty();
            assertThat(report.totals()).isEmpty();
            assertThat(report.totalItems()).isZero();
        }
    }

    @Test
    void aLimitReturnsTheNewestEntriesAndSaysMoreMatched() throws IOException {
        try (LossLedger ledger = LossLedger.open(dir, LossLedger.DEFAULT_MAX_BYTES)) {
            for (int minute = 0; minute < 5; minute++) {
                ledger.record(dropped(NIGHT.plusSeconds(60L * minute), "db", 1));
            }
            LossReport report = ledger.query(new LossQuery(java.util.Optional.empty(), java.util.Optional.empty(),
                    java.util.Optional.empty(), java.util.Optional.empty(), 2));
            assertThat(report.entries()).hasSize(2);
            assertThat(report.truncated()).isTrue();
            assertThat(report.entries().get(0).minute()).isEqualTo(Instant.parse("2026-11-30T02:19:00Z"));
            assertThat(report.totalItems()).isEqualTo(5);
        }
    }

    @Test
    void theSizeBoundDeletesWholeOldestDayFiles() throws IOException {
        long bound = 4096;
        try (LossLedger ledger = LossLedger.open(dir, bound)) {
            for (int day = 0; day < 60; day++) {
                ledger.record(dropped(NIGHT.plusSeconds(86_400L * day), "db", 1));
                ledger.flush();
            }
            assertThat(ledger.bytesOnDisk()).isLessThanOrEqualTo(bound);
            assertThat(dayFiles()).hasSizeLessThan(60).contains(dir.resolve("losses-2027-01-28.ledger"))
                    .doesNotContain(dir.resolve("losses-2026-11-30.ledger"));
            assertThat(ledger.query(LossQuery.all()).unrecorded()).isZero();
        }
    }

    @Test
    void aDayThatAloneFillsTheBoundStopsRecordingAndCountsWhatItCouldNotStore() throws IOException {
        try (LossLedger ledger = LossLedger.open(dir, 4096)) {
            for (int tag = 0; tag < 200; tag++) {
                ledger.record(dropped(NIGHT, "db", 1).withTag("line1/tag" + tag));
            }
            ledger.flush();
            LossReport report = ledger.query(LossQuery.all());
            assertThat(ledger.bytesOnDisk()).isLessThanOrEqualTo(4096);
            assertThat(report.unrecorded()).isPositive();
            assertThat(report.entries().size() + report.unrecorded()).isEqualTo(200);
        }
    }

    @Test
    void aTornTailIsCutOffAndTheRecordsBeforeItAreKept() throws IOException {
        try (LossLedger ledger = LossLedger.open(dir, LossLedger.DEFAULT_MAX_BYTES)) {
            ledger.record(dropped(NIGHT, "db", 3));
            ledger.flush();
            ledger.record(dropped(NIGHT, "mqtt", 4));
            ledger.flush();
        }
        Path file = dir.resolve("losses-2026-11-30.ledger");
        long whole = Files.size(file);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.truncate(whole - 10);
        }
        try (LossLedger reopened = LossLedger.open(dir, LossLedger.DEFAULT_MAX_BYTES)) {
            LossReport report = reopened.query(LossQuery.all());
            assertThat(report.entries()).singleElement().extracting(LossEntry::connection).isEqualTo("db");
            assertThat(report.damage().records()).isEqualTo(1);
            reopened.record(dropped(NIGHT, "opcua", 1));
            reopened.flush();
        }
        try (LossLedger again = LossLedger.open(dir, LossLedger.DEFAULT_MAX_BYTES)) {
            assertThat(again.query(LossQuery.all()).entries()).extracting(LossEntry::connection)
                    .containsExactlyInAnyOrder("db", "opcua");
            assertThat(again.damage()).isEqualTo(LedgerDamage.NONE);
        }
    }

    @Test
    void aFlippedByteCostsOnlyItsRecord() throws IOException {
        try (LossLedger ledger = LossLedger.open(dir, LossLedger.DEFAULT_MAX_BYTES)) {
            for (String connection : List.of("a", "b", "c")) {
                ledger.record(dropped(NIGHT, connection, 1));
                ledger.flush();
            }
        }
        Path file = dir.resolve("losses-2026-11-30.ledger");
        long recordBytes = (Files.size(file) - LedgerFormat.FILE_HEADER_BYTES) / 3;
        flip(file, LedgerFormat.FILE_HEADER_BYTES + recordBytes + 20);
        try (LossLedger reopened = LossLedger.open(dir, LossLedger.DEFAULT_MAX_BYTES)) {
            LossReport report = reopened.query(LossQuery.all());
            assertThat(report.entries()).extracting(LossEntry::connection).containsExactlyInAnyOrder("a", "c");
            assertThat(report.damage().records()).isEqualTo(1);
            assertThat(report.damage().bytes()).isEqualTo(recordBytes);
        }
    }

    @Test
    void aFlippedLengthWordCostsOnlyItsRecord() throws IOException {
        try (LossLedger ledger = LossLedger.open(dir, LossLedger.DEFAULT_MAX_BYTES)) {
            for (String connection : List.of("a", "b", "c")) {
                ledger.record(dropped(NIGHT, connection, 1));
                ledger.flush();
            }
        }
        Path file = dir.resolve("losses-2026-11-30.ledger");
        long recordBytes = (Files.size(file) - LedgerFormat.FILE_HEADER_BYTES) / 3;
        flip(file, LedgerFormat.FILE_HEADER_BYTES + recordBytes + 1);
        try (LossLedger reopened = LossLedger.open(dir, LossLedger.DEFAULT_MAX_BYTES)) {
            assertThat(reopened.query(LossQuery.all()).entries()).extracting(LossEntry::connection)
                    .containsExactlyInAnyOrder("a", "c");
        }
    }

    @Test
    void aFlippedByteAtEveryOffsetNeverStopsTheOpenAndKeepsTheOtherRecords() throws IOException {
        try (LossLedger ledger = LossLedger.open(dir, LossLedger.DEFAULT_MAX_BYTES)) {
            for (String connection : List.of("a", "b", "c")) {
                ledger.record(dropped(NIGHT, connection, 1));
                ledger.flush();
            }
        }
        Path file = dir.resolve("losses-2026-11-30.ledger");
        byte[] original = Files.readAllBytes(file);
        for (int offset = LedgerFormat.FILE_HEADER_BYTES; offset < original.length; offset++) {
            Files.write(file, original);
            flip(file, offset);
            try (LossLedger reopened = LossLedger.open(dir, LossLedger.DEFAULT_MAX_BYTES)) {
                assertThat(reopened.query(LossQuery.all()).entries()).as("flipped at %d", offset).hasSize(2);
                assertThat(reopened.damage().records()).as("flipped at %d", offset).isEqualTo(1);
            }
        }
    }

    @Test
    void aFileWithoutAReadableHeaderIsSetAsideAndCounted() throws IOException {
        Files.write(dir.resolve("losses-2026-11-29.ledger"), new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9});
        try (LossLedger ledger = LossLedger.open(dir, LossLedger.DEFAULT_MAX_BYTES)) {
            assertThat(ledger.damage().files()).isEqualTo(1);
            assertThat(dayFiles()).isEmpty();
            assertThat(Files.list(dir.resolve("corrupt")).toList()).hasSize(1);
            ledger.record(dropped(NIGHT, "db", 1));
            ledger.flush();
            assertThat(ledger.query(LossQuery.all()).entries()).hasSize(1);
        }
    }

    @Test
    void aFileOfANewerFormatRefusesTheOpenAndChangesNothing() throws IOException {
        Path newer = dir.resolve("losses-2026-11-29.ledger");
        byte[] bytes = ByteBuffer.allocate(20).put(LedgerFormat.MAGIC).putInt(LedgerFormat.VERSION + 1).array();
        Files.write(newer, bytes);
        Path torn = dir.resolve("losses-2026-11-30.ledger");
        byte[] tornBytes = ByteBuffer.allocate(12).put(LedgerFormat.MAGIC).putInt(LedgerFormat.VERSION).putInt(99).array();
        Files.write(torn, tornBytes);
        assertThatThrownBy(() -> LossLedger.open(dir, LossLedger.DEFAULT_MAX_BYTES))
                .isInstanceOf(LedgerVersionException.class)
                .hasMessageContaining(newer.toString())
                .hasMessageContaining("version " + (LedgerFormat.VERSION + 1));
        assertThat(Files.readAllBytes(newer)).isEqualTo(bytes);
        assertThat(Files.readAllBytes(torn)).isEqualTo(tornBytes);
    }

    @Test
    void tooManyDistinctTagsPendingAreSummedWithoutTheirTag() throws IOException {
        try (LossLedger ledger = LossLedger.open(dir, LossLedger.DEFAULT_MAX_BYTES)) {
            int tags = LossLedger.MAX_PENDING_KEYS + 500;
            for (int tag = 0; tag < tags; tag++) {
                ledger.record(dropped(NIGHT, "db", 1).withTag("t" + tag));
            }
            assertThat(ledger.flush()).isEqualTo(LossLedger.MAX_PENDING_KEYS + 1);
            LossReport report = ledger.query(LossQuery.all().because(LossReason.DROP_OLDEST));
            assertThat(report.totalItems()).isEqualTo(tags);
        }
    }

    @Test
    void aFinishedDayIsCompactedToOneRecordPerKeyAndReadsTheSame() throws IOException {
        Path day = dir.resolve("losses-2026-11-30.ledger");
        try (LossLedger ledger = LossLedger.open(dir, LossLedger.DEFAULT_MAX_BYTES)) {
            for (int second = 0; second < 30; second++) {
                ledger.record(dropped(NIGHT.plusSeconds(second), "db", 1));
                ledger.flush();
            }
            assertThat(LedgerScan.read(day).entries()).hasSize(30);
            ledger.record(dropped(NIGHT.plusSeconds(86_400), "db", 1));
            ledger.flush();
            assertThat(LedgerScan.read(day).entries()).singleElement().extracting(LossEntry::items).isEqualTo(30L);
            assertThat(ledger.query(LossQuery.all()).totalItems()).isEqualTo(31);
        }
    }

    @Test
    void aDayThatAloneWouldPassTheBoundIsCompactedBeforeAnythingIsRefused() throws IOException {
        try (LossLedger ledger = LossLedger.open(dir, 4096)) {
            for (int second = 0; second < 59; second++) {
                ledger.record(dropped(NIGHT.minusSeconds(10).plusSeconds(second), "db", 1));
                ledger.flush();
            }
            LossReport report = ledger.query(LossQuery.all());
            assertThat(report.unrecorded()).isZero();
            assertThat(report.totalItems()).isEqualTo(59);
            assertThat(ledger.bytesOnDisk()).isLessThanOrEqualTo(4096);
        }
    }

    @Test
    void aCompactionCutShortLeavesTheDayFileAndItsTempFileIsDeletedAtOpen() throws IOException {
        try (LossLedger ledger = LossLedger.open(dir, LossLedger.DEFAULT_MAX_BYTES)) {
            ledger.record(dropped(NIGHT, "db", 4));
        }
        Path temp = dir.resolve("losses-2026-11-30.ledger" + DayCompaction.TEMP_SUFFIX);
        Files.write(temp, new byte[] {'Q', 'L', 'O'});
        try (LossLedger reopened = LossLedger.open(dir, LossLedger.DEFAULT_MAX_BYTES)) {
            assertThat(temp).doesNotExist();
            assertThat(reopened.query(LossQuery.all()).totalItems()).isEqualTo(4);
            assertThat(reopened.damage()).isEqualTo(LedgerDamage.NONE);
        }
    }

    private List<Path> dayFiles() throws IOException {
        try (Stream<Path> list = Files.list(dir)) {
            return list.filter(f -> f.getFileName().toString().endsWith(".ledger")).toList();
        }
    }

    private static void flip(Path file, long offset) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer one = ByteBuffer.allocate(1);
            channel.read(one, offset);
            one.put(0, (byte) (one.get(0) ^ 0x5A)).rewind();
            channel.write(one, offset);
        }
    }
}
