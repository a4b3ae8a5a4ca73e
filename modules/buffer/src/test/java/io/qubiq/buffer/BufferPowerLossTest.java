package io.qubiq.buffer;

import static org.assertj.core.api.Assertions.assertThat;

import io.qubiq.fileops.FileOps;
import io.qubiq.fileops.powerloss.CrashReplays;
import io.qubiq.fileops.powerloss.CrashState;
import io.qubiq.fileops.powerloss.FileOp;
import io.qubiq.fileops.powerloss.RecordingFileOps;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Power loss at every point the crash model allows ({@link
 * io.qubiq.fileops.powerloss.CrashStates}): a workload of appends over several segment rolls,
 * acknowledgements (several between two watermark syncs) and segment deletions runs through a
 * {@link RecordingFileOps}; every state a power cut could leave is replayed into a fresh directory
 * and the buffer reopened there. Asserted for each state:
 *
 * <ul>
 *   <li>open never throws, and every record it gives back is one that was appended, under the
 *       sequence it was appended with, at most once;
 *   <li>the sequence never goes back: a new append gets a sequence above every surviving record,
 *       and with ALWAYS and PERIODIC (whose floor file is fsynced at each roll) above every
 *       sequence an append had returned before the power went;
 *   <li>ALWAYS: every append that returned survives unless it was being acknowledged;
 *       PERIODIC: every append that returned before the last completed sync does (at most the
 *       last period is lost); NONE: nothing more (its promise covers a process crash only);
 *   <li>ALWAYS: recovery reports no records lost (an alarm and a loss-ledger entry would follow).
 * </ul>
 *
 * <p>What it would catch: a watermark or floor written or fsynced too late or in the wrong order
 * with a segment's deletion or rename, a recovery that throws on a torn file, a segment roll whose
 * sequences can be issued again after power loss, an fsync that does not cover what ALWAYS
 * promised.
 *
 * <p>CI replays a seeded sample of the states ({@link CrashReplays}: at most 300 per mode);
 * {@code scripts/torture --power-loss} replays the whole model.
 */
class BufferPowerLossTest {
  private static final int PAYLOAD_BYTES = 3000;
  private static final int APPENDS = 80;

  record Appended(long id, long sequence) {}

  record Acking(long sequence) {}

  record Synced() {}

  @TempDir Path temp;

  @ParameterizedTest
  @EnumSource(Durability.class)
  void everyCrashStateReopensWithItsDurabilityPromiseKeptAndNoSequenceReused(Durability mode)
      throws Exception {
    Path recorded = Files.createDirectories(temp.resolve("recorded"));
    RecordingFileOps files = new RecordingFileOps(recorded);
    runWorkload(options(recorded, mode), files);
    List<FileOp> log = files.log();
    Map<Long, Long> sequenceOfId = new HashMap<>();
    for (FileOp op : log) {
      if (op instanceof FileOp.Note n && n.event() instanceof Appended a) {
        sequenceOfId.put(a.id(), a.sequence());
      }
    }
    CrashReplays.Result result = CrashReplays.run("buffer " + mode, log, temp,
        (state, dir) -> check(state, log, dir, mode, sequenceOfId));
    assertThat(result.failures()).as("crash states that broke a promise").isEmpty();
  }

  private static BufferOptions options(Path dir, Durability mode) {
    return TestBuffers.small(dir).withDurability(mode)
        .withPeriodicFsyncIntervalMs(3_600_000); // the workload syncs itself: one period each
  }

  /**
   * Appends {@value #APPENDS} records (about five segment rolls), acknowledging in steps so that
   * consumed segments are deleted, and with PERIODIC syncing every ten appends; each event is
   * noted in the log right where it happened.
   */
  private static void runWorkload(BufferOptions options, RecordingFileOps files)
      throws Exception {
    try (SegmentedDiskBuffer buffer = SegmentedDiskBuffer.open(options, WatermarkListener.none(),
        files)) {
      long acked = 0;
      for (long id = 1; id <= APPENDS; id++) {
        long sequence = buffer.append(TestBuffers.payload(id, PAYLOAD_BYTES));
        files.note(new Appended(id, sequence));
        if (options.durability() == Durability.PERIODIC && id % 10 == 0) {
          buffer.sync();
          files.note(new Synced());
        }
        if (id % 6 == 0) {
          long upTo = sequence - 3;
          if (upTo > acked) {
            files.note(new Acking(upTo));
            buffer.reader().acknowledge(upTo);
            acked = upTo;
          }
        }
      }
    }
    files.note("closed");
  }

  /** Reopens one replayed state; null when every promise held, else what broke. */
  private static String check(CrashState state, List<FileOp> log, Path dir, Durability mode,
      Map<Long, Long> sequenceOfId) {
    List<Object> notes = state.notesBefore(log);
    long acking = 0;
    long lastReturned = 0;
    int syncedThrough = 0; // notes index of the last Synced
    for (int i = 0; i < notes.size(); i++) {
      Object note = notes.get(i);
      if (note instanceof Acking a) {
        acking = Math.max(acking, a.sequence());
      } else if (note instanceof Appended a) {
        lastReturned = Math.max(lastReturned, a.sequence());
      } else if (note instanceof Synced) {
        syncedThrough = i;
      }
    }
    try (SegmentedDiskBuffer buffer = SegmentedDiskBuffer.open(options(dir, mode),
        WatermarkListener.none(), FileOps.system())) {
      Set<Long> survivors = new HashSet<>();
      long highest = 0;
      for (BufferedRecord r : readAll(buffer)) {
        long id;
        try {
          id = TestBuffers.idOf(r.payload());
        } catch (AssertionError e) {
          return "record " + r.sequence() + " came back with damaged bytes";
        }
        Long appendedAs = sequenceOfId.get(id);
        if (appendedAs == null || appendedAs != r.sequence()) {
          return "record " + id + " came back as sequence " + r.sequence() + ", appended as "
              + appendedAs;
        }
        if (!survivors.add(r.sequence())) {
          return "record " + r.sequence() + " came back twice";
        }
        highest = Math.max(highest, r.sequence());
      }
      for (int i = 0; i < notes.size(); i++) {
        if (notes.get(i) instanceof Appended a && a.sequence() > acking
            && !survivors.contains(a.sequence())
            && (mode == Durability.ALWAYS
                || (mode == Durability.PERIODIC && i < syncedThrough))) {
          return "append " + a.sequence() + " returned"
              + (mode == Durability.PERIODIC ? " before a completed sync" : "")
              + " and was lost (acknowledged through " + acking + ")";
        }
      }
      if (mode == Durability.ALWAYS && buffer.recoveryReport().recordsLost() > 0) {
        return "recovery reports " + buffer.recoveryReport().recordsLost()
            + " records lost, but ALWAYS lost none: " + buffer.recoveryReport().findings();
      }
      long next = buffer.append(TestBuffers.payload(999_999, 16));
      if (next <= highest) {
        return "new append got sequence " + next + ", at or below surviving record " + highest;
      }
      if (mode != Durability.NONE && next <= lastReturned) {
        return "new append got sequence " + next + ", at or below returned append "
            + lastReturned;
      }
      return null;
    } catch (Exception | AssertionError e) {
      return "reopen failed: " + e;
    }
  }

  private static List<BufferedRecord> readAll(DurableBuffer buffer) throws BufferException {
    List<BufferedRecord> all = new ArrayList<>(buffer.reader().peek(1000, Long.MAX_VALUE));
    while (!all.isEmpty()) {
      List<BufferedRecord> more = buffer.reader()
          .peekAfter(all.get(all.size() - 1).sequence(), 1000, Long.MAX_VALUE);
      if (more.isEmpty()) {
        break;
      }
      all.addAll(more);
    }
    return all;
  }
}
