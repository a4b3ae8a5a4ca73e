package io.qubiq.buffer;

import static org.assertj.core.api.Assertions.assertThat;

import io.qubiq.fileops.FileOps;
import io.qubiq.fileops.powerloss.CrashState;
import io.qubiq.fileops.powerloss.CrashStates;
import io.qubiq.fileops.powerloss.FileOp;
import io.qubiq.fileops.powerloss.RecordingFileOps;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Power loss at every point the crash model allows ({@link CrashStates}): a workload of appends
 * over several segment rolls, acknowledgements (several between two watermark syncs) and segment deletions runs through a {@link
 * RecordingFileOps}; every state a power cut could leave is replayed into a fresh directory and
 * the buffer reopened there. Asserted for each state:
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
 * <p>CI replays a seeded sample of at most {@code powerloss.states} states per mode (default
 * {@value #CI_STATES}); {@code -Dpowerloss.states=0} (scripts/torture --power-loss) replays the
 * whole model. {@code -Dpowerloss.seed} changes the sample and the torn lengths.
 */
class BufferPowerLossTest {
  static final int CI_STATES = 300;
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
    long seed = Long.getLong("powerloss.seed", 20261202L);
    int cap = Integer.getInteger("powerloss.states", CI_STATES);
    Path base = scratch();
    Path recorded = Files.createDirectories(base.resolve("recorded"));
    RecordingFileOps files = new RecordingFileOps(recorded);
    runWorkload(options(recorded, mode), files);
    List<FileOp> log = files.log();
    Map<Long, Long> sequenceOfId = new HashMap<>();
    for (FileOp op : log) {
      if (op instanceof FileOp.Note n && n.event() instanceof Appended a) {
        sequenceOfId.put(a.id(), a.sequence());
      }
    }
    List<CrashState> model = CrashStates.generate(log, seed);
    List<CrashState> states = cap > 0 ? CrashStates.sample(model, cap, seed) : model;
    List<String> failures = new ArrayList<>();
    long started = System.nanoTime();
    int n = 0;
    for (CrashState state : states) {
      Path dir = base.resolve("state-" + n++);
      state.replay(log, dir);
      String failure = check(state, log, dir, mode, sequenceOfId);
      if (failure != null && failures.size() < 20) {
        failures.add(state.description() + ": " + failure);
      }
      deleteTree(dir);
    }
    deleteTree(base);
    String line = String.format("power loss  buffer %-8s %5d states replayed (model %d, %d"
        + " operations logged), %d failures, %.1f s", mode, states.size(), model.size(),
        log.size(), failures.size(), (System.nanoTime() - started) / 1e9);
    System.out.println(line);
    appendDatasheet(line);
    assertThat(failures).as("crash states that broke a promise").isEmpty();
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

  /** Replays go to memory when /dev/shm is there: the model's fsyncs then cost nothing. */
  private Path scratch() throws IOException {
    Path shm = Path.of("/dev/shm");
    if (Files.isDirectory(shm) && Files.isWritable(shm)) {
      return Files.createTempDirectory(shm, "qubiq-powerloss-");
    }
    return Files.createTempDirectory(temp, "powerloss-");
  }

  private static void appendDatasheet(String line) throws IOException {
    String datasheet = System.getProperty("powerloss.datasheet");
    if (datasheet != null) {
      Files.writeString(Path.of(datasheet), line + System.lineSeparator(),
          java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
    }
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
