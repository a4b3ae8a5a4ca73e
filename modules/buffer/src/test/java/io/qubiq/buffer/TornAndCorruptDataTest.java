package io.qubiq.buffer;

import static io.qubiq.buffer.TestBuffers.copyTree;
import static io.qubiq.buffer.TestBuffers.deleteTree;
import static io.qubiq.buffer.TestBuffers.idOf;
import static io.qubiq.buffer.TestBuffers.payload;
import static io.qubiq.buffer.TestBuffers.readAll;
import static io.qubiq.buffer.TestBuffers.segmentFiles;
import static io.qubiq.buffer.TestBuffers.small;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Damage a small buffer's files on purpose (truncation at every byte offset, random bit flips) and
 * check that reopening never throws and always yields a prefix of what was written.
 */
class TornAndCorruptDataTest {
  private static final int RECORDS = 24;
  @TempDir Path temp;

  /** Writes {@link #RECORDS} records of varied sizes; returns the frame start of each. */
  private List<Integer> writePristine(Path dir, boolean cleanClose) throws Exception {
    List<Integer> starts = new ArrayList<>();
    SegmentedDiskBuffer buffer = SegmentedDiskBuffer.open(small(dir), WatermarkListener.none());
    int offset = SegmentHeader.BYTES;
    for (int i = 0; i < RECORDS; i++) {
      int size = sizeOf(i);
      buffer.append(payload(i, size));
      starts.add(offset);
      offset += RecordFormat.frameBytes(size);
    }
    if (cleanClose) {
      buffer.close();
    } else {
      buffer.simulateCrash();
    }
    return starts;
  }

  private static int sizeOf(int i) {
    return 8 + (i * 37) % 90;
  }

  /** Opens, reads everything, checks it is ids 0..n-1 for some n, and crashes out again. */
  private static int reopenAndCountPrefix(Path dir) throws Exception {
    return reopenAndCountPrefix(dir, true);
  }

  /** As above; with {@code append}, also checks a new append gets a higher sequence. */
  private static int reopenAndCountPrefix(Path dir, boolean append) throws Exception {
    SegmentedDiskBuffer buffer = SegmentedDiskBuffer.open(small(dir), WatermarkListener.none());
    try {
      List<BufferedRecord> records = readAll(buffer);
      for (int i = 0; i < records.size(); i++) {
        assertThat(idOf(records.get(i).payload())).isEqualTo(i);
        assertThat(records.get(i).payload()).hasSize(Math.max(8, sizeOf(i)));
      }
      assertThat(buffer.stats().records()).isEqualTo(records.size());
      if (!append) {
        return records.size();
      }
      long next = buffer.append(payload(1000, 10));
      assertThat(next).isGreaterThan(records.isEmpty() ? 0 : records.get(records.size() - 1)
          .sequence());
      return records.size();
    } finally {
      buffer.simulateCrash();
    }
  }

  @Test
  void truncationAtEveryByteOffsetKeepsExactlyTheWholeRecordsBeforeIt() throws Exception {
    truncateAndReopen(false, 1);
  }

  @Test
  void truncationOfACleanlyClosedSegmentDistrustsItsSeal() throws Exception {
    truncateAndReopen(true, 7);
  }

  private void truncateAndReopen(boolean cleanClose, int step) throws Exception {
    Path pristine = temp.resolve("pristine");
    List<Integer> starts = writePristine(pristine, cleanClose);
    Path segment = segmentFiles(pristine).get(0);
    int dataEnd = starts.get(RECORDS - 1) + RecordFormat.frameBytes(sizeOf(RECORDS - 1));
    Path work = temp.resolve("work");

    for (int cut = 0; cut <= dataEnd + 8; cut += step) {
      deleteTree(work);
      copyTree(pristine, work);
      try (FileChannel channel = FileChannel.open(work.resolve(segment.getFileName()),
          StandardOpenOption.WRITE)) {
        channel.truncate(cut);
      }
      int expected = 0;
      while (expected < RECORDS && starts.get(expected) + RecordFormat.HEADER_BYTES
          + Math.max(8, sizeOf(expected)) <= cut) {
        expected++;
      }
      if (cut < SegmentHeader.BYTES) {
        expected = 0;
      }
      assertThat(reopenAndCountPrefix(work, cut % 16 == 0))
          .as("records kept after truncating at %d", cut)
          .isEqualTo(expected);
    }
  }

  /**
   * Opens, reads everything, checks the records are valid and in order (damage may have cost
   * some anywhere), that a new append gets a higher sequence, and that acknowledging everything
   * leaves nothing counted; crashes out again. Returns how many records were read.
   */
  private static int reopenAndCheckOrdered(Path dir) throws Exception {
    SegmentedDiskBuffer buffer = SegmentedDiskBuffer.open(small(dir), WatermarkListener.none());
    try {
      List<BufferedRecord> records = readAll(buffer);
      long previous = -1;
      for (BufferedRecord record : records) {
        long id = idOf(record.payload());
        assertThat(id).isGreaterThan(previous).isLessThan(RECORDS);
        assertThat(record.payload()).hasSize(Math.max(8, sizeOf((int) id)));
        assertThat(record.sequence()).as("sequence of id %d", id).isEqualTo(id + 1);
        previous = id;
      }
      long next = buffer.append(payload(1000, 10));
      assertThat(next).isGreaterThan(records.isEmpty() ? 0 : records.get(records.size() - 1)
          .sequence());
      buffer.reader().acknowledge(next);
      assertThat(buffer.stats().records()).isZero();
      return records.size();
    } finally {
      buffer.simulateCrash();
    }
  }

  @Test
  void randomBitFlipsCostOnlyDamagedRecordsKeepOrderAndNeverThrow() throws Exception {
    long seed = Long.getLong("buffer.bitflip.seed", System.nanoTime());
    Random random = new Random(seed);
    Path cleanPristine = temp.resolve("clean");
    Path crashedPristine = temp.resolve("crashed");
    List<Integer> starts = writePristine(cleanPristine, true);
    writePristine(crashedPristine, false);
    int dataEnd = starts.get(RECORDS - 1) + RecordFormat.frameBytes(sizeOf(RECORDS - 1));
    Path work = temp.resolve("work");
    int shortened = 0;

    for (int round = 0; round < 300; round++) {
      Path pristine = round % 2 == 0 ? cleanPristine : crashedPristine;
      deleteTree(work);
      copyTree(pristine, work);
      List<Path> targets = new ArrayList<>(segmentFiles(work));
      for (String name : List.of(AckWatermark.FILE_NAME, CleanShutdownMarker.FILE_NAME)) {
        if (Files.exists(work.resolve(name)) && Files.size(work.resolve(name)) > 0) {
          targets.add(work.resolve(name));
        }
      }
      int flips = 1 + random.nextInt(3);
      for (int f = 0; f < flips; f++) {
        Path target = targets.get(random.nextInt(targets.size()));
        long size = Math.min(Files.size(target), target.toString().endsWith(".seg")
            ? dataEnd + 64 : Files.size(target));
        SegmentedDiskBufferTest.flipBit(target, random.nextLong(size), random.nextInt(8));
      }
      int kept = reopenAndCheckOrdered(work);
      assertThat(kept).as("seed %d round %d", seed, round).isBetween(0, RECORDS);
      if (kept < RECORDS) {
        shortened++;
      }
    }
    assertThat(shortened).as("seed %d: flips must sometimes cost records", seed).isPositive();
  }
}
