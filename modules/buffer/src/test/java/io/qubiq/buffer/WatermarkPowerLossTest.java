package io.qubiq.buffer;

import static org.assertj.core.api.Assertions.assertThat;

import io.qubiq.fileops.FileOps;
import io.qubiq.fileops.powerloss.CrashReplays;
import io.qubiq.fileops.powerloss.FileOp;
import io.qubiq.fileops.powerloss.RecordingFileOps;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Power loss at every point of the crash model ({@link
 * io.qubiq.fileops.powerloss.CrashStates}) for the buffer's two small
 * sequence files on their own: the ack watermark ({@code ack.wm}) and the sequence floor ({@code
 * seq.floor}). A workload writes, defers and syncs consumed values, raises the watermark's floor
 * and rolls the floor file; every crash state is replayed and both files reopened. Asserted:
 *
 * <ul>
 *   <li>both open without throwing, and never report a value that was never written (a torn slot
 *       is never taken for a valid one);
 *   <li>the watermark's consumed value and floor are at least what the last completed {@code
 *       sync()} covered (an unsynced one may go back: acknowledged records replay, none is lost);
 *   <li>the sequence floor, when durable (every mode but NONE), is at least what every completed
 *       roll or raise wrote: the guarantee that a segment lost to power cannot reissue its
 *       sequences.
 * </ul>
 *
 * <p>What it would catch: slots written in place (a torn write then loses both values), a counter
 * that picks the older slot, a sync that does not force, a floor roll that returns before its
 * fsync. CI replays a seeded sample of the states ({@link CrashReplays}); {@code scripts/torture
 * --power-loss} replays the whole model.
 */
class WatermarkPowerLossTest {
  private static final int STEPS = 40;

  record Writing(long consumed, long floor) {}

  record Synced(long consumed, long floor) {}

  record Rolling(long floor) {}

  record Rolled(long floor) {}

  @TempDir Path temp;

  @ParameterizedTest(name = "floor durable: {0}")
  @ValueSource(booleans = {true, false})
  void everyCrashStateReopensWithTheSyncedValuesAndNothingNeverWritten(boolean durableFloor)
      throws Exception {
    Path recorded = Files.createDirectories(temp.resolve("recorded"));
    RecordingFileOps files = new RecordingFileOps(recorded);
    runWorkload(recorded, files, durableFloor);
    List<FileOp> log = files.log();
    CrashReplays.Result result = CrashReplays.run(
        "ack.wm+seq.floor " + (durableFloor ? "floor fsynced" : "floor unsynced"), log, temp,
        (state, dir) -> check(state.notesBefore(log), dir, durableFloor));
    assertThat(result.failures()).as("crash states that broke a promise").isEmpty();
  }

  private static void runWorkload(Path dir, RecordingFileOps files, boolean durableFloor)
      throws IOException {
    try (AckWatermark watermark = AckWatermark.open(dir, files);
        SequenceFloor floor = SequenceFloor.open(dir, files, durableFloor)) {
      for (long i = 1; i <= STEPS; i++) {
        files.note(new Writing(i * 10 + 5, i * 100));
        watermark.write(i * 10);
        if (i % 3 == 0) {
          watermark.defer(i * 10 + 5);
        }
        if (i % 5 == 0) {
          watermark.raiseFloor(i * 100);
        }
        if (i % 4 == 0) {
          watermark.sync();
          files.note(new Synced(watermark.consumed(), watermark.floor()));
        }
        files.note(new Rolling(i * 50 + 64));
        floor.roll(i * 50, 64);
        files.note(new Rolled(floor.floor()));
      }
    }
  }

  private static String check(List<Object> notes, Path dir, boolean durableFloor) {
    long maxConsumed = 0;
    long maxFloor = 1;
    long syncedConsumed = 0;
    long syncedFloor = 1;
    long maxRolling = 1;
    long rolled = 1;
    for (Object note : notes) {
      if (note instanceof Writing w) {
        maxConsumed = Math.max(maxConsumed, w.consumed());
        maxFloor = Math.max(maxFloor, w.floor());
      } else if (note instanceof Synced s) {
        syncedConsumed = s.consumed();
        syncedFloor = s.floor();
      } else if (note instanceof Rolling r) {
        maxRolling = Math.max(maxRolling, r.floor());
      } else if (note instanceof Rolled r) {
        rolled = r.floor();
      }
    }
    try (AckWatermark watermark = AckWatermark.open(dir, FileOps.system());
        SequenceFloor floor = SequenceFloor.open(dir, FileOps.system(), durableFloor)) {
      if (watermark.consumed() < syncedConsumed || watermark.floor() < syncedFloor) {
        return "watermark " + watermark.consumed() + "/" + watermark.floor()
            + " is below the synced " + syncedConsumed + "/" + syncedFloor;
      }
      if (watermark.consumed() > maxConsumed || watermark.floor() > maxFloor) {
        return "watermark " + watermark.consumed() + "/" + watermark.floor()
            + " was never written (at most " + maxConsumed + "/" + maxFloor + ")";
      }
      if (floor.floor() > maxRolling) {
        return "sequence floor " + floor.floor() + " was never written (at most " + maxRolling
            + ")";
      }
      if (durableFloor && floor.floor() < rolled) {
        return "sequence floor " + floor.floor() + " is below the completed roll's " + rolled;
      }
      return null;
    } catch (Exception e) {
      return "open failed: " + e;
    }
  }
}
