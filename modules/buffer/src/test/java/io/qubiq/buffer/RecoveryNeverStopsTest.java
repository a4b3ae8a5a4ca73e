package io.qubiq.buffer;

import static io.qubiq.buffer.SegmentedDiskBufferTest.flipBit;
import static io.qubiq.buffer.TestBuffers.idOf;
import static io.qubiq.buffer.TestBuffers.payload;
import static io.qubiq.buffer.TestBuffers.readAll;
import static io.qubiq.buffer.TestBuffers.segmentFiles;
import static io.qubiq.buffer.TestBuffers.small;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Damaged or missing files never stop a buffer from opening or its reader from going on, cost at
 * most the damaged records, say what they cost, and never let a sequence number go back. Each
 * test names the field failure it reproduces.
 */
class RecoveryNeverStopsTest {
  private static final int SIZE = 300;
  private static final int FRAME = RecordFormat.frameBytes(SIZE);

  @TempDir Path temp;

  private Path dir() {
    return temp.resolve("buffer");
  }

  /** Records every callback, as the channel's listener would. */
  private static final class Recording implements WatermarkListener {
    final List<BufferStats> high = new CopyOnWriteArrayList<>();
    final List<BufferDamage> damage = new CopyOnWriteArrayList<>();

    @Override
    public void onHighWater(BufferStats stats) {
      high.add(stats);
    }

    @Override
    public void onLowWater(BufferStats stats) {}

    @Override
    public void onDamage(BufferDamage found) {
      damage.add(found);
    }
  }

  private static List<Long> ids(List<BufferedRecord> records) {
    return records.stream().map(r -> idOf(r.payload())).toList();
  }

  private static List<Long> idsExcept(int count, long... missing) {
    List<Long> ids = new ArrayList<>();
    for (long i = 0; i < count; i++) {
      ids.add(i);
    }
    for (long m : missing) {
      ids.remove(Long.valueOf(m));
    }
    return ids;
  }

  private static void fill(SegmentedDiskBuffer buffer, int count) throws BufferException {
    for (int i = 0; i < count; i++) {
      buffer.append(payload(i, SIZE));
    }
  }

  /** Offset of record {@code index} (0-based) in the first segment, all records of SIZE. */
  private static long offsetOf(int index) {
    return SegmentHeader.BYTES + (long) index * FRAME;
  }

  @Test
  void aBufferReopenedAboveHighWaterOpensAndReportsThePressureOnceWithRealStats() throws Exception {
    // field failure: restart with the destination down and the buffer at 90 % -> NPE, exit 1
    BufferOptions options = small(dir()).withMaxBytes(200 * FRAME);
    for (boolean crash : new boolean[] {true, false}) {
      try (SegmentedDiskBuffer buffer = SegmentedDiskBuffer.open(options, WatermarkListener.none())) {
        fill(buffer, 180);
        if (crash) {
          buffer.simulateCrash();
        }
      }
      Recording listener = new Recording();
      try (SegmentedDiskBuffer buffer = SegmentedDiskBuffer.open(options, listener)) {
        assertThat(listener.high).as("crash %s", crash).singleElement()
            .satisfies(s -> assertThat(s.usedBytes()).isGreaterThanOrEqualTo(180L * FRAME));
        assertThat(readAll(buffer)).hasSize(180);
        buffer.reader().acknowledge(buffer.stats().tailSequence());
      }
    }
  }

  @Test
  void aDamagedLengthWordInAnAcknowledgedRecordCostsNothingWhetherTheSealIsTrustedOrScanned()
      throws Exception {
    // field failure: one flipped length word in an acknowledged record -> open throws, exit 1
    for (boolean crash : new boolean[] {false, true}) {
      TestBuffers.deleteTree(dir());
      try (SegmentedDiskBuffer buffer = SegmentedDiskBuffer.open(small(dir()),
          WatermarkListener.none())) {
        fill(buffer, 100);
        buffer.reader().acknowledge(20);
        if (crash) {
          buffer.simulateCrash();
        }
      }
      flipBit(segmentFiles(dir()).get(0), offsetOf(5), 6); // the length word of record 6
      try (SegmentedDiskBuffer buffer = SegmentedDiskBuffer.open(small(dir()),
          WatermarkListener.none())) {
        assertThat(ids(readAll(buffer))).as("crash %s", crash).isEqualTo(idsExcept(100,
            idsExcept(20).stream().mapToLong(Long::longValue).toArray()));
        assertThat(buffer.recoveryReport().findings()).isNotEmpty();
        assertThat(buffer.recoveryReport().recordsLost()).isZero();
        assertThat(buffer.append(payload(1000, 10))).isGreaterThan(100);
      }
    }
  }

  @Test
  void damageInAnUnacknowledgedRecordCostsOnlyThatRecordAndIsReportedOnce() throws Exception {
    // field failure: one flipped bit cost all 21 records of a segment, silently
    for (boolean crash : new boolean[] {false, true}) {
      TestBuffers.deleteTree(dir());
      try (SegmentedDiskBuffer buffer = SegmentedDiskBuffer.open(small(dir()),
          WatermarkListener.none())) {
        fill(buffer, 150);
        if (crash) {
          buffer.simulateCrash();
        }
      }
      flipBit(segmentFiles(dir()).get(0), offsetOf(30) + 100, 3); // payload of record 31
      Recording listener = new Recording();
      try (SegmentedDiskBuffer buffer = SegmentedDiskBuffer.open(small(dir()), listener)) {
        assertThat(ids(readAll(buffer))).isEqualTo(idsExcept(150, 30));
        long lost = buffer.recoveryReport().recordsLost()
            + listener.damage.stream().mapToLong(BufferDamage::recordsLost).sum();
        assertThat(lost).as("crash %s: reported at open or at read, once", crash).isEqualTo(1);
      }
      Recording again = new Recording();
      try (SegmentedDiskBuffer buffer = SegmentedDiskBuffer.open(small(dir()), again)) {
        assertThat(ids(readAll(buffer))).isEqualTo(idsExcept(150, 30));
        assertThat(buffer.recoveryReport().recordsLost()).as("the hole is not news").isZero();
        assertThat(again.damage).isEmpty();
      }
    }
  }

  @Test
  void damageInTheSegmentBeingWrittenIsSteppedOverAndTheReaderGoesOn() throws Exception {
    // field failure: the forwarder read the same damaged record forever; the next restart
    // discarded everything from it on
    Recording listener = new Recording();
    try (SegmentedDiskBuffer buffer = SegmentedDiskBuffer.open(small(dir()), listener)) {
      fill(buffer, 40);
      Path live = segmentFiles(dir()).get(0);
      flipBit(live, offsetOf(12) + 40, 0); // record 13, in the unsealed segment
      flipBit(live, offsetOf(39) + 40, 0); // record 40: the newest, nothing valid after it yet
      List<BufferedRecord> first = buffer.reader().peek(1000, Long.MAX_VALUE);
      assertThat(ids(first)).isEqualTo(idsExcept(39, 12));
      assertThat(listener.damage).extracting(BufferDamage::firstLost).containsExactly(13L, 40L);
      buffer.reader().acknowledge(first.get(first.size() - 1).sequence());
      for (int i = 40; i < 60; i++) {
        buffer.append(payload(i, SIZE));
      }
      List<BufferedRecord> rest = buffer.reader().peek(1000, Long.MAX_VALUE);
      assertThat(ids(rest)).isEqualTo(idsExcept(60, idsExcept(40).stream()
          .mapToLong(Long::longValue).toArray()));
      assertThat(rest.get(0).sequence()).isEqualTo(41);
      buffer.reader().acknowledge(rest.get(rest.size() - 1).sequence());
      assertThat(buffer.stats().records()).isZero();
      buffer.simulateCrash();
    }
    try (SegmentedDiskBuffer buffer = SegmentedDiskBuffer.open(small(dir()), listener)) {
      assertThat(buffer.recoveryReport().recordsLost()).isZero();
      assertThat(readAll(buffer)).isEmpty();
    }
  }

  @Test
  void aDeletedAckWatermarkReplaysButNeverReusesASequence() throws Exception {
    // field failure: with ack.wm lost the buffer lost its floor and reissued numbers
    try (SegmentedDiskBuffer buffer = SegmentedDiskBuffer.open(small(dir()),
        WatermarkListener.none())) {
      fill(buffer, 500);
      buffer.reader().acknowledge(500);
      buffer.simulateCrash();
    }
    Files.delete(dir().resolve(AckWatermark.FILE_NAME));
    try (SegmentedDiskBuffer buffer = SegmentedDiskBuffer.open(small(dir()),
        WatermarkListener.none())) {
      assertThat(buffer.recoveryReport().recordsLost()).isZero();
      assertThat(buffer.append(payload(1000, 10))).isGreaterThan(500);
    }
  }

  @Test
  void aDeletedNewestSegmentIsReportedAndItsSequencesAreNeverIssuedAgain() throws Exception {
    // field failure: a deleted newest segment went unnoticed and its numbers were reused
    try (SegmentedDiskBuffer buffer = SegmentedDiskBuffer.open(small(dir()),
        WatermarkListener.none())) {
      fill(buffer, 700);
      buffer.reader().acknowledge(10);
      buffer.simulateCrash();
    }
    List<Path> segments = segmentFiles(dir());
    Files.delete(segments.get(segments.size() - 1));
    try (SegmentedDiskBuffer buffer = SegmentedDiskBuffer.open(small(dir()),
        WatermarkListener.none())) {
      assertThat(buffer.recoveryReport().reason()).isPresent();
      assertThat(buffer.recoveryReport().findings()).extracting(RecoveryReport.Finding::reason)
          .contains(RecoveryReport.Reason.MISSING_SEGMENT);
      assertThat(buffer.append(payload(1000, 10))).isGreaterThan(700);
    }
  }

  @Test
  void reservedSequencesAreNeverIssuedEvenAfterTheBufferFilesAreLost() throws Exception {
    // field failure: after buffer/ was deleted, new items took the numbers of quarantined ones
    try (SegmentedDiskBuffer buffer = SegmentedDiskBuffer.open(small(dir()),
        WatermarkListener.none())) {
      fill(buffer, 20);
      buffer.reserveSequencesThrough(5_000);
      assertThat(buffer.append(payload(20, SIZE))).isEqualTo(5_001);
      assertThat(ids(readAll(buffer))).isEqualTo(idsExcept(21));
      buffer.simulateCrash();
    }
    Files.delete(dir().resolve(AckWatermark.FILE_NAME));
    try (SegmentedDiskBuffer buffer = SegmentedDiskBuffer.open(small(dir()),
        WatermarkListener.none())) {
      assertThat(ids(readAll(buffer))).isEqualTo(idsExcept(21));
      assertThat(buffer.append(payload(21, SIZE))).isGreaterThan(5_001);
    }
    TestBuffers.deleteTree(dir());
    try (SegmentedDiskBuffer buffer = SegmentedDiskBuffer.open(small(dir()),
        WatermarkListener.none())) {
      buffer.reserveSequencesThrough(9_000); // what the channel does from its quarantine's ids
      assertThat(buffer.append(payload(0, SIZE))).isEqualTo(9_001);
    }
  }
}
