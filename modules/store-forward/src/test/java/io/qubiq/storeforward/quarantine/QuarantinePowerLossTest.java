package io.qubiq.storeforward.quarantine;

import static org.assertj.core.api.Assertions.assertThat;

import io.qubiq.core.error.FailureClass;
import io.qubiq.fileops.FileOps;
import io.qubiq.fileops.powerloss.CrashReplays;
import io.qubiq.fileops.powerloss.CrashState;
import io.qubiq.fileops.powerloss.FileOp;
import io.qubiq.fileops.powerloss.RecordingFileOps;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Power loss at every point of the crash model ({@link io.qubiq.fileops.powerloss.CrashStates})
 * for the file quarantine: a workload adds entries and removes some, through a {@link
 * RecordingFileOps}; every state a power cut could leave is replayed into a fresh directory and
 * the store reopened there. Asserted for each state:
 *
 * <ul>
 *   <li>open never throws, and nothing is set aside as damaged (an add leaves the whole entry or
 *       none: never part of one);
 *   <li>every entry whose {@code add} returned is there with its exact item, unless its removal
 *       had begun; every entry whose {@code remove} returned is gone;
 *   <li>every entry there is one an {@code add} was called for, with the item it was given.
 * </ul>
 *
 * <p>What it would catch: a rename before the temp file's fsync, an add that returns before the
 * directory fsync, a remove that returns before it, recovery that throws on a leftover temp file.
 */
class QuarantinePowerLossTest {

    private static final int ENTRIES = 30;
    private static final long MAX = 1 << 20;

    record Adding(long id) {
    }

    record Added(long id) {
    }

    record Removing(long id) {
    }

    record Removed(long id) {
    }

    @TempDir
    Path temp;

    @Test
    void everyCrashStateReopensWithEveryCommittedAddAndRemoveAndNoPartEntry() throws Exception {
        Path recorded = Files.createDirectories(temp.resolve("recorded"));
        RecordingFileOps files = new RecordingFileOps(recorded);
        try (FileQuarantineStore store = FileQuarantineStore.open(recorded.resolve("q"), MAX, files)) {
            for (long id = 1; id <= ENTRIES; id++) {
                files.note(new Adding(id));
                store.add(entry(id), item(id));
                files.note(new Added(id));
                if (id % 3 == 0) {
                    files.note(new Removing(id - 1));
                    store.remove(id - 1);
                    files.note(new Removed(id - 1));
                }
            }
        }
        List<FileOp> log = files.log();
        CrashReplays.Result result = CrashReplays.run("quarantine", log, temp,
                (state, dir) -> check(state.notesBefore(log), dir));
        assertThat(result.failures()).as("crash states that broke a promise").isEmpty();
    }

    private static String check(List<Object> notes, Path dir) throws Exception {
        Set<Long> adding = new HashSet<>();
        Set<Long> added = new HashSet<>();
        Set<Long> removing = new HashSet<>();
        Set<Long> removed = new HashSet<>();
        for (Object note : notes) {
            if (note instanceof Adding a) {
                adding.add(a.id());
            } else if (note instanceof Added a) {
                added.add(a.id());
            } else if (note instanceof Removing r) {
                removing.add(r.id());
            } else if (note instanceof Removed r) {
                removed.add(r.id());
            }
        }
        try (FileQuarantineStore store = FileQuarantineStore.open(dir.resolve("q"), MAX, FileOps.system())) {
            if (store.setAside() > 0) {
                return store.setAside() + " entries set aside as damaged";
            }
            for (long id = 1; id <= ENTRIES + 1; id++) {
                Optional<QuarantinedItem> got = store.get(id);
                if (got.isPresent()) {
                    if (!adding.contains(id)) {
                        return "entry " + id + " is there but was never added";
                    }
                    if (removed.contains(id)) {
                        return "entry " + id + " is there after its remove returned";
                    }
                    if (!Arrays.equals(got.get().item(), item(id))) {
                        return "entry " + id + " came back with other bytes";
                    }
                } else if (added.contains(id) && !removing.contains(id)) {
                    return "entry " + id + " was lost after its add returned";
                }
            }
            return null;
        }
    }

    private static QuarantineEntry entry(long id) {
        Instant at = Instant.ofEpochMilli(1_700_000_000_000L + id);
        return new QuarantineEntry(id, FailureClass.PERMANENT, "rejected " + id, "constraint " + id, 1, at, at,
                item(id).length);
    }

    private static byte[] item(long id) {
        byte[] bytes = new byte[1500 + (int) id * 7];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) (id * 31 + i * 7 + 1);
        }
        return bytes;
    }
}
