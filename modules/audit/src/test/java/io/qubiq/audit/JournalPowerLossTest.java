package io.qubiq.audit;

import static org.assertj.core.api.Assertions.assertThat;

import io.qubiq.fileops.FileOps;
import io.qubiq.fileops.powerloss.CrashReplays;
import io.qubiq.fileops.powerloss.FileOp;
import io.qubiq.fileops.powerloss.RecordingFileOps;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Power loss at every point of the crash model ({@link io.qubiq.fileops.powerloss.CrashStates})
 * for the audit journal: batches of entries are written over several segment rolls, with
 * retention by size deleting the oldest segments, through a {@link RecordingFileOps}; every state
 * a power cut could leave is replayed into a fresh directory and the journal reopened there.
 * Asserted for each state:
 *
 * <ul>
 *   <li>open never throws;
 *   <li>every entry of every batch whose {@code write} returned is served (retention removes whole
 *       oldest segments only, so what is served is one unbroken run of entries, the newest
 *       returned one among them), each exactly once and under its own sequence number;
 *   <li>the sequence never goes back: an entry written after reopening gets a sequence number
 *       above every one stored before the power went.
 * </ul>
 *
 * <p>What it would catch: a batch acknowledged before its fsync, a roll whose new segment (or
 * header) can vanish while later records in it survive, retention deleting the newest segment, a
 * torn record that stops the journal from opening.
 */
class JournalPowerLossTest {

    private static final int BATCHES = 25;
    private static final int BATCH = 60;
    private static final AuditConfig CONFIG =
            AuditConfig.defaults().withStoreLimits(3 * 65536, 65536, Optional.empty()).withMinAgeDays(0);

    record Writing(int last) {
    }

    record Wrote(int last) {
    }

    @TempDir
    Path temp;

    @Test
    void everyCrashStateReopensWithEveryReturnedBatchAndNoSequenceReused() throws Exception {
        Path recorded = Files.createDirectories(temp.resolve("recorded"));
        RecordingFileOps files = new RecordingFileOps(recorded);
        try (LocalAuditStore store = new LocalAuditStore("audit", recorded.resolve("journal"), CONFIG,
                Clock.systemUTC(), files)) {
            for (int b = 0; b < BATCHES; b++) {
                int first = b * BATCH;
                files.note(new Writing(first + BATCH - 1));
                store.write(IntStream.range(first, first + BATCH).mapToObj(Entries::entry).toList());
                files.note(new Wrote(first + BATCH - 1));
            }
        }
        List<FileOp> log = files.log();
        assertThat(log).as("retention deleted segments").anyMatch(op -> op instanceof FileOp.Delete);
        assertThat(log.stream().filter(op -> op instanceof FileOp.Create).count()).as("segments created")
                .isGreaterThan(3);
        CrashReplays.Result result = CrashReplays.run("audit journal", log, temp,
                (state, dir) -> check(state.notesBefore(log), dir));
        assertThat(result.failures()).as("crash states that broke a promise").isEmpty();
    }

    private static String check(List<Object> notes, Path dir) throws Exception {
        int returned = -1;
        int writing = -1;
        for (Object note : notes) {
            if (note instanceof Writing w) {
                writing = w.last();
            } else if (note instanceof Wrote w) {
                returned = w.last();
            }
        }
        try (LocalAuditStore store = new LocalAuditStore("audit", dir.resolve("journal"), CONFIG,
                Clock.systemUTC(), FileOps.system())) {
            store.open();
            List<StoredEntry> served = servedOldestFirst(store);
            int previous = -1;
            for (StoredEntry stored : served) {
                int n = Entries.number(stored.entry());
                if (stored.seq() != n + 1L) {
                    return "entry " + n + " is served under sequence " + stored.seq() + ", stored as " + (n + 1);
                }
                if (previous >= 0 && n != previous + 1) {
                    return "entries " + (previous + 1) + " to " + (n - 1) + " are missing between served ones";
                }
                if (n > writing) {
                    return "entry " + n + " is served but was never written";
                }
                previous = n;
            }
            if (previous < returned) {
                return "entries up to " + returned + " were written (write returned) but only up to " + previous
                        + " are served";
            }
            store.write(List.of(Entries.entry(1_000_000)));
            long next = store.lastSeq();
            if (next <= previous + 1L || next <= returned + 1L) {
                return "an entry written after reopening got sequence " + next + ", not above " + (previous + 1);
            }
            return null;
        }
    }

    private static List<StoredEntry> servedOldestFirst(LocalAuditStore store) {
        List<StoredEntry> all = new ArrayList<>();
        JournalPage page = store.query(JournalQuery.newest(JournalQuery.MAX_LIMIT));
        all.addAll(page.entries());
        while (page.next().isPresent()) {
            page = store.query(JournalQuery.newest(JournalQuery.MAX_LIMIT).withBefore(page.next().getAsLong()));
            all.addAll(page.entries());
        }
        java.util.Collections.reverse(all);
        return all;
    }
}
