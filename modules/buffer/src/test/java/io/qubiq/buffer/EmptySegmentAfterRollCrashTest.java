package io.qubiq.buffer;

import static io.qubiq.buffer.TestBuffers.idOf;
import static io.qubiq.buffer.TestBuffers.payload;
import static io.qubiq.buffer.TestBuffers.readAll;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A kill that lands inside a segment roll, after the new segment file was renamed to its base
 * sequence and before its first record, leaves an empty newest segment. The next owner must not
 * give its own first segment that same base (and so the same file name): when the empty one was
 * trimmed later, deleting it by name deleted the live segment instead, and every record appended
 * to it was lost at the next restart, its sequences handed out again.
 *
 * <p>Found by the kill -9 torture in durability NONE (returned appends missing above the
 * acknowledged floor after a restart, their sequence numbers reused).
 */
class EmptySegmentAfterRollCrashTest {
  @TempDir Path temp;

  @Test
  void recordsAppendedAfterAnEmptyNewestSegmentWasRecoveredSurviveItsTrimAndARestart()
      throws Exception {
    BufferOptions options = TestBuffers.small(temp);
    long last = 0;
    SegmentedDiskBuffer first = SegmentedDiskBuffer.open(options, WatermarkListener.none());
    for (int i = 1; i <= 100; i++) {
      last = first.append(payload(i, 100));
    }
    first.simulateCrash();
    leaveEmptySegmentAsAnInterruptedRollDoes(options, last + 1, last);

    long fresh;
    try (SegmentedDiskBuffer second = SegmentedDiskBuffer.open(options,
        WatermarkListener.none())) {
      fresh = second.append(payload(1_000, 100));
      second.reader().acknowledge(last); // frees the old segment and the empty one
      second.simulateCrash();
    }

    try (SegmentedDiskBuffer third = SegmentedDiskBuffer.open(options,
        WatermarkListener.none())) {
      List<BufferedRecord> records = readAll(third);
      assertThat(records).extracting(BufferedRecord::sequence).containsExactly(fresh);
      assertThat(idOf(records.get(0).payload())).isEqualTo(1_000);
      assertThat(third.append(payload(1_001, 100))).isGreaterThan(fresh);
    }
  }

  /** What a roll leaves when killed after its rename: identity header, zeros, no seal. */
  private static void leaveEmptySegmentAsAnInterruptedRollDoes(BufferOptions options, long base,
      long previousLast) throws Exception {
    Path file = options.dir().resolve(Segment.fileName(base));
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW,
        StandardOpenOption.WRITE)) {
      ByteBuffer identity = SegmentHeader.encodeIdentity(options.segmentBytes(), base,
          previousLast, System.currentTimeMillis());
      while (identity.hasRemaining()) {
        channel.write(identity, identity.position());
      }
      channel.write(ByteBuffer.allocate(1), options.segmentBytes() - 1);
    }
  }
}
