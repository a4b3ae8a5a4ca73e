package io.qubiq.losses;

import static org.assertj.core.api.Assertions.assertThat;

import io.qubiq.core.event.DataLoss;
import io.qubiq.core.event.LossReason;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The loss ledger on a really full file system (a 1 MiB tmpfs this test mounts; skipped with a
 * message where it may not mount, i.e. not as root): a flush that meets the full disk writes part of
 * a record at most and cuts it off again, keeps the sums in memory (queries still show them), and
 * writes them once space is back; nothing is damaged. Would catch: a torn record left behind by a
 * full disk (reported as ledger damage at the next start), sums lost with the failed flush.
 */
class LossLedgerFullDiskTest {

    private static final Instant NIGHT = Instant.parse("2026-11-30T02:15:10Z");

    @TempDir
    Path temp;

    private Path mount;

    @BeforeEach
    void mountSmallFileSystem() throws Exception {
        Path dir = Files.createDirectories(temp.resolve("disk"));
        String out = run("mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", dir.toString());
        Assumptions.assumeTrue("tmpfs".equals(Files.getFileStore(dir).type()),
                () -> "needs to mount a 1 MiB tmpfs (root with CAP_SYS_ADMIN); skipped: " + out.trim());
        mount = dir;
    }

    @AfterEach
    void unmount() throws Exception {
        if (mount != null) {
            run("umount", mount.toString());
        }
    }

    private static String run(String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(30, TimeUnit.SECONDS);
        return out;
    }

    private void fill(Path filler) throws IOException {
        ByteBuffer chunk = ByteBuffer.allocate(64 * 1024);
        try (FileChannel out = FileChannel.open(filler, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            while (true) {
                chunk.clear();
                while (chunk.hasRemaining()) {
                    out.write(chunk);
                }
            }
        } catch (IOException e) {
            assertThat(e.getMessage()).contains("No space left on device");
        }
    }

    private static DataLoss refused(String connection, long items) {
        return DataLoss.of(NIGHT, "channel", connection, LossReason.DISK_FULL, items, 0,
                "the disk is full: the buffer could not store new items");
    }

    @Test
    void aFlushOnAFullDiskLeavesNoTornRecordAndWritesTheSumsOnceSpaceIsBack() throws Exception {
        Path dir = mount.resolve("losses");
        Path filler = mount.resolve("filler");
        try (LossLedger ledger = LossLedger.open(dir, LossLedger.DEFAULT_MAX_BYTES)) {
            ledger.record(refused("before", 1));
            assertThat(ledger.flush()).isEqualTo(1);
            Path file = dir.resolve(LedgerFormat.fileName(LedgerFormat.dayOf(NIGHT)));
            long size = Files.size(file);

            fill(filler);
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
