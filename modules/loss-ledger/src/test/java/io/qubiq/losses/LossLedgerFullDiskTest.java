package io.qubiq.losses;

import static org.assertj.core.api.Assertions.assertThat;

import io.qubiq.core.event.DataLoss;
import io.qubiq.core.event.LossReason;
import io.qubiq.fileops.smalldisk.SmallDisk;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The loss ledger on a really full file system (a 1 MiB tmpfs this test mounts, {@link SmallDisk}; skipped
 * with the reason where it may not mount, i.e. not as root): a flush that meets the full disk writes part of
 * a record at most and cuts it off again, keeps the sums in memory (queries still show them), and
 * writes them once space is back; nothing is damaged. Would catch: a torn record left behind by a
 * full disk (reported as ledger damage at the next start), sums lost with the failed flush.
 */
class LossLedgerFullDiskTest {

    private static final Instant NIGHT = Instant.parse("2026-11-30T02:15:10Z");

    @TempDir
    Path temp;

    private SmallDisk disk;

    @BeforeEach
    void mountSmallFileSystem() throws Exception {
        disk = SmallDisk.mount(temp.resolve("disk"), 1);
        Assumptions.assumeTrue(disk.mounted(), () -> "needs to mount a 1 MiB tmpfs; skipped: " + disk.whyNot());
    }

    @AfterEach
    void unmount() throws Exception {
        if (disk != null) {
            disk.close();
        }
    }

    private static DataLoss refused(String connection, long items) {
        return DataLoss.of(NIGHT, "channel", connection, LossReason.DISK_FULL, items, 0,
                "the disk is full: the buffer could not store new items");
    }

    @Test
    void aFlushOnAFullDiskLeavesNoTornRecordAndWritesTheSumsOnceSpaceIsBack() throws Exception {
        Path dir = disk.path().resolve("losses");
        Path filler = disk.path().resolve("filler");
        try (LossLedger ledger = LossLedger.open(dir, LossLedger.DEFAULT_MAX_BYTES)) {
            ledger.record(refused("before", 1));
            assertThat(ledger.flush()).isEqualTo(1);
            Path file = dir.resolve(LedgerFormat.fileName(LedgerFormat.dayOf(NIGHT)));
            long size = Files.size(file);

            disk.fill(filler);
            for (int i = 0; i < 300; i++) { // far more than the slack left in the file's last page
                ledger.record(refused("db-" + i, 2));
            }
            assertThat(ledger.flush()).isZero();
            assertThat(Files.size(file)).as("the part of a record that fitted is cut off").isEqualTo(size);
            assertThat(LedgerScan.read(file).damagedRecords()).isZero();
            assertThat(ledger.query(LossQuery.all()).totalItems()).as("kept in memory").isEqualTo(601);

            Files.delete(filler);
            assertThat(ledger.flush()).isEqualTo(300);
        }
        try (LossLedger reopened = LossLedger.open(dir, LossLedger.DEFAULT_MAX_BYTES)) {
            LossReport report = reopened.query(LossQuery.all());
            assertThat(report.damage()).isEqualTo(LedgerDamage.NONE);
            assertThat(report.totalItems()).isEqualTo(601);
        }
    }
}
