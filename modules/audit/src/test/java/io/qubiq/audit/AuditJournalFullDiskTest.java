package io.qubiq.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qubiq.core.error.TransientException;
import io.qubiq.fileops.smalldisk.SmallDisk;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The local audit store on a really full file system (a 1 MiB tmpfs this test mounts, {@link SmallDisk}; skipped
 * with the reason where it may not mount, i.e. not as root): a write that meets the full disk is a transient
 * failure that says the disk is full (its channel keeps the entries and writes them again), the
 * segment is cut back to its last whole record, and once space is back every entry is stored once, in
 * order. Would catch: a torn record left by a full disk, a bare I/O error, entries lost or doubled.
 */
class AuditJournalFullDiskTest {

    private static final Instant NOW = Instant.parse("2025-06-01T00:00:00Z");

    @TempDir
    Path temp;

    private SmallDisk disk;
    private LocalAuditStore store;

    @BeforeEach
    void mountSmallFileSystem() throws Exception {
        disk = SmallDisk.mount(temp.resolve("disk"), 1);
        Assumptions.assumeTrue(disk.mounted(), () -> "needs to mount a 1 MiB tmpfs; skipped: " + disk.whyNot());
    }

    @AfterEach
    void closeAndUnmount() throws Exception {
        if (store != null) {
            store.close();
        }
        if (disk != null) {
            disk.close();
        }
    }

    private long journalBytes(Path journal) throws IOException {
        try (Stream<Path> files = Files.list(journal)) {
            long total = 0;
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                total += Files.size(file);
            }
            return total;
        }
    }

    private static List<JournalEntry> entries(int from, int count) {
        return IntStream.range(from, from + count).mapToObj(Entries::entry).toList();
    }

    @Test
    void aWriteOnAFullDiskIsTransientSaysSoAndLeavesNoTornRecord() throws Exception {
        Path journal = disk.path().resolve("journal");
        Path filler = disk.path().resolve("filler");
        store = new LocalAuditStore("audit", journal, AuditConfig.defaults(), Clock.fixed(NOW, ZoneOffset.UTC));
        store.write(entries(0, 3));
        long before = journalBytes(journal);

        disk.fill(filler);
        assertThatThrownBy(() -> store.write(entries(3, 300))) // far more than the last page's slack
                .isInstanceOf(TransientException.class)
                .hasMessageContaining("the disk is full")
                .hasMessageContaining(journal.toString());
        assertThat(journalBytes(journal)).as("the part that fitted is cut off").isEqualTo(before);

        Files.delete(filler);
        store.write(entries(3, 300)); // the channel writes the same batch again
        store.close();
        store = new LocalAuditStore("audit", journal, AuditConfig.defaults(), Clock.fixed(NOW, ZoneOffset.UTC));
        JournalPage page = store.query(JournalQuery.newest(1000));
        assertThat(page.entries()).hasSize(303);
        assertThat(page.entries()).extracting(StoredEntry::seq)
                .containsExactlyElementsOf(IntStream.iterate(303, i -> i >= 1, i -> i - 1).mapToObj(i -> (long) i)
                        .toList());
        assertThat(page.entries().stream().map(stored -> Entries.number(stored.entry())).toList())
                .containsExactlyElementsOf(IntStream.iterate(302, i -> i >= 0, i -> i - 1).boxed().toList());
    }
}
