package io.qubiq.buffer;

import static io.qubiq.buffer.TestBuffers.idOf;
import static io.qubiq.buffer.TestBuffers.payload;
import static io.qubiq.buffer.TestBuffers.readAll;
import static io.qubiq.buffer.TestBuffers.small;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A full disk under the buffer (ENOSPC, injected through the channel seam with the operating
 * system's own words): every failure is a {@link BufferIOException} that says the disk is full
 * ({@link BufferIOException#diskFull()}), the caller learns which appends were not stored or not
 * made durable, and nothing already acknowledged is lost or damaged. Would catch: a full disk that
 * surfaces as a bare I/O error, an append reported as stored that is not, a torn segment.
 */
class DiskFullBufferTest {
  @TempDir Path temp;
  private final FaultInjectingChannels channels = new FaultInjectingChannels();

  @BeforeEach
  void theDiskAnswersLikeLinux() {
    channels.failingWith("No space left on device");
  }

  private Path dir() {
    return temp.resolve("buffer");
  }

  private SegmentedDiskBuffer open(BufferOptions options) throws BufferException {
    return SegmentedDiskBuffer.open(options, WatermarkListener.none(), channels);
  }

  private static boolean preparedFile(Path p) {
    return p.getFileName().toString().endsWith(".tmp");
  }

  private static List<Long> ids(List<BufferedRecord> records) {
    return records.stream().map(r -> idOf(r.payload())).toList();
  }

  @Test
  void anAlwaysAppendThatNeedsASegmentOnAFullDiskIsRefusedAsDiskFullAndNoAcknowledgedAppendIsLost()
      throws Exception {
    List<Long> acknowledged = new ArrayList<>();
    List<BufferIOException> refused = new ArrayList<>();
    try (SegmentedDiskBuffer buffer = open(small(dir()).withDurability(Durability.ALWAYS))) {
      channels.failWrite(1, DiskFullBufferTest::preparedFile);
      for (long id = 0; id < 300; id++) {
        try {
          buffer.append(payload(id, 500));
          acknowledged.add(id);
        } catch (BufferIOException e) {
          refused.add(e);
        }
      }
      assertThat(channels.injected()).isEqualTo(1);
      assertThat(refused).singleElement().satisfies(e -> {
        assertThat(e.diskFull()).isTrue();
        assertThat(e).hasMessageContaining("nothing was stored").hasMessageContaining("the disk is full")
            .hasMessageContaining("No space left on device").hasMessageContaining(dir().toString());
      });
      assertThat(ids(readAll(buffer))).isEqualTo(acknowledged);
    }
    try (SegmentedDiskBuffer buffer = open(small(dir()))) {
      assertThat(buffer.recoveryReport().intact()).as(buffer.recoveryReport().toString()).isTrue();
      assertThat(ids(readAll(buffer))).isEqualTo(acknowledged);
    }
  }

  @Test
  void anAlwaysAppendWhoseFsyncFindsTheDiskFullIsNotAcknowledgedAndEarlierOnesSurvive() throws Exception {
    List<Long> acknowledged = new ArrayList<>();
    try (SegmentedDiskBuffer buffer = open(small(dir()).withDurability(Durability.ALWAYS))) {
      for (long id = 0; id < 20; id++) {
        buffer.append(payload(id, 50));
        acknowledged.add(id);
      }
      channels.failForce(1, p -> p.getFileName().toString().endsWith(".seg") || preparedFile(p));

      assertThatThrownBy(() -> buffer.append(payload(20, 50)))
          .isInstanceOfSatisfying(BufferIOException.class, e -> assertThat(e.diskFull()).isTrue())
          .hasMessageContaining("not known to be durable")
          .hasMessageContaining("the disk is full");
      for (long id = 21; id < 40; id++) {
        buffer.append(payload(id, 50));
        acknowledged.add(id);
      }
    }
    try (SegmentedDiskBuffer buffer = open(small(dir()))) {
      List<Long> ids = ids(readAll(buffer));
      assertThat(ids).containsAll(acknowledged).isSorted().doesNotHaveDuplicates();
      assertThat(ids).isSubsetOf(LongStream.range(0, 40).boxed().toList());
    }
  }

  @Test
  void aBatchCutShortByAFullDiskSaysHowManyOfItsRecordsWereStored() throws Exception {
    try (SegmentedDiskBuffer buffer = open(small(dir()))) {
      buffer.append(payload(0, 500));
      channels.failWrite(1, DiskFullBufferTest::preparedFile);
      List<byte[]> batch = new ArrayList<>();
      for (long id = 1; id <= 300; id++) { // more than one 64 KiB segment: the roll meets the full disk
        batch.add(payload(id, 500));
      }
      BufferIOException failure = org.junit.jupiter.api.Assertions.assertThrows(BufferIOException.class,
          () -> buffer.appendBatch(batch));
      assertThat(failure.diskFull()).isTrue();
      assertThat(failure.storedRecords()).isBetween(1, 299);
      List<Long> expected = LongStream.rangeClosed(0, failure.storedRecords()).boxed().toList();
      assertThat(ids(readAll(buffer))).isEqualTo(expected);
      assertThat(buffer.stats().records()).isEqualTo(expected.size());
    }
  }

  @Test
  void aFullDiskWritingTheAckWatermarkIsClassifiedAndTheHeadStays() throws Exception {
    try (SegmentedDiskBuffer buffer = open(small(dir()))) {
      long last = 0;
      for (long id = 0; id < 10; id++) {
        last = buffer.append(payload(id, 50));
      }
      long target = last;
      channels.failWrite(1, p -> p.getFileName().toString().equals(AckWatermark.FILE_NAME));

      assertThatThrownBy(() -> buffer.reader().acknowledge(target))
          .isInstanceOfSatisfying(BufferIOException.class, e -> assertThat(e.diskFull()).isTrue())
          .hasMessageContaining("head did not move")
          .hasMessageContaining("the disk is full");
      assertThat(ids(readAll(buffer))).hasSize(10);
      buffer.reader().acknowledge(target);
      assertThat(buffer.stats().records()).isZero();
    }
    try (SegmentedDiskBuffer buffer = open(small(dir()))) {
      assertThat(buffer.recoveryReport().intact()).isTrue();
      assertThat(readAll(buffer)).isEmpty();
    }
  }

  @Test
  void onlyAFullDiskIsClassifiedAsOne() {
    assertThat(DiskFull.causedBy(new java.io.IOException("No space left on device"))).isTrue();
    assertThat(DiskFull.causedBy(new java.io.IOException("There is not enough space on the disk"))).isTrue();
    assertThat(DiskFull.causedBy(new RuntimeException(new java.io.IOException("Disk quota exceeded")))).isTrue();
    assertThat(DiskFull.causedBy(new java.io.IOException("Input/output error"))).isFalse();
    assertThat(DiskFull.causedBy(new java.io.IOException((String) null))).isFalse();
    assertThat(new BufferIOException("append failed", new java.io.IOException("Input/output error")))
        .hasMessage("append failed: java.io.IOException: Input/output error")
        .satisfies(e -> assertThat(e.diskFull()).isFalse());
  }
}
