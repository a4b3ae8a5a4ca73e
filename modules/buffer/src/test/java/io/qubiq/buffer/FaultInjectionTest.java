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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** I/O failures injected through the channel seam: reported as typed errors, never corrupting. */
class FaultInjectionTest {
  @TempDir Path temp;
  private final FaultInjectingChannels channels = new FaultInjectingChannels();

  private Path dir() {
    return temp.resolve("buffer");
  }

  private SegmentedDiskBuffer open(BufferOptions options) throws BufferException {
    return SegmentedDiskBuffer.open(options, WatermarkListener.none(), channels);
  }

  private static boolean isSegmentWork(Path p) {
    String name = p.getFileName().toString();
    return name.endsWith(".tmp") || name.endsWith(".seg");
  }

  private static List<Long> ids(List<BufferedRecord> records) {
    return records.stream().map(r -> idOf(r.payload())).toList();
  }

  @Test
  void aFailedFsyncFailsTheWaitingAppendAndTheBufferKeepsWorking() throws Exception {
    List<Long> returned = new ArrayList<>();
    try (SegmentedDiskBuffer buffer = open(small(dir()).withDurability(Durability.ALWAYS))) {
      buffer.append(payload(0, 50));
      returned.add(0L);
      // The channel keeps the name it was opened under: the first segment was prepared-0.tmp.
      channels.failForce(1, p -> p.getFileName().toString().equals("prepared-0.tmp"));

      assertThatThrownBy(() -> buffer.append(payload(1, 50)))
          .isInstanceOf(BufferIOException.class)
          .hasMessageContaining("not known to be durable");
      assertThat(channels.injected()).isEqualTo(1);
      assertThat(buffer.stats().syncFailures()).isEqualTo(1);

      for (long id = 2; id < 50; id++) {
        buffer.append(payload(id, 50));
        returned.add(id);
      }
    }
    try (SegmentedDiskBuffer buffer = open(small(dir()))) {
      List<Long> ids = ids(readAll(buffer));
      assertThat(ids).containsAll(returned);
      assertThat(ids).isSorted().doesNotHaveDuplicates();
      assertThat(ids).isSubsetOf(new ArrayList<>(java.util.stream.LongStream.range(0, 50)
          .boxed().toList()));
    }
  }

  @Test
  void aFailedFsyncFailsThePendingAsyncAppendsItWasMeantToCover() throws Exception {
    try (SegmentedDiskBuffer buffer = open(small(dir()).withDurability(Durability.ALWAYS))) {
      buffer.append(payload(0, 50));
      channels.failForce(1, p -> p.getFileName().toString().equals("prepared-0.tmp"));

      java.util.concurrent.CompletableFuture<Long> failed = buffer.appendAsync(payload(1, 50));
      assertThatThrownBy(() -> failed.get(60, java.util.concurrent.TimeUnit.SECONDS))
          .hasCauseInstanceOf(BufferIOException.class);

      assertThat(buffer.appendAsync(payload(2, 50)).get(60, java.util.concurrent.TimeUnit.SECONDS))
          .isPositive();
    }
  }

  @Test
  void aFailedWriteWhilePreparingTheNextSegmentFailsOnlyTheAppendThatNeededIt()
      throws Exception {
    List<Long> returned = new ArrayList<>();
    try (SegmentedDiskBuffer buffer = open(small(dir()))) {
      channels.failWrite(1, p -> p.getFileName().toString().endsWith(".tmp"));
      int failures = 0;
      for (long id = 0; id < 1000; id++) {
        try {
          buffer.append(payload(id, 500));
          returned.add(id);
        } catch (BufferIOException e) {
          failures++;
          assertThat(e).hasMessageContaining("nothing was stored");
        }
      }
      assertThat(failures).isEqualTo(1);
      assertThat(ids(readAll(buffer))).isEqualTo(returned);
      assertThat(buffer.stats().records()).isEqualTo(returned.size());
    }
    try (SegmentedDiskBuffer buffer = open(small(dir()))) {
      assertThat(buffer.recoveryReport().intact()).isTrue();
      assertThat(ids(readAll(buffer))).isEqualTo(returned);
    }
  }

  @Test
  void aFailedWatermarkWriteFailsTheAcknowledgementAndTheHeadStays() throws Exception {
    try (SegmentedDiskBuffer buffer = open(small(dir()))) {
      long last = 0;
      for (long id = 0; id < 10; id++) {
        last = buffer.append(payload(id, 50));
      }
      long target = last;
      channels.failWrite(1, p -> p.getFileName().toString().equals(AckWatermark.FILE_NAME));

      assertThatThrownBy(() -> buffer.reader().acknowledge(target))
          .isInstanceOf(BufferIOException.class)
          .hasMessageContaining("head did not move");
      assertThat(buffer.stats().records()).isEqualTo(10);
      assertThat(ids(readAll(buffer))).hasSize(10);

      buffer.reader().acknowledge(target);
      assertThat(buffer.stats().records()).isZero();
    }
    try (SegmentedDiskBuffer buffer = open(small(dir()))) {
      assertThat(readAll(buffer)).isEmpty();
    }
  }

  @Test
  void aFailedSyncCallIsReportedToTheCaller() throws Exception {
    try (SegmentedDiskBuffer buffer = open(small(dir()))) {
      buffer.append(payload(1, 10));
      channels.failForce(1, FaultInjectionTest::isSegmentWork);

      assertThatThrownBy(buffer::sync).isInstanceOf(BufferIOException.class);
      buffer.append(payload(2, 10));
      buffer.sync();
      assertThat(buffer.stats().syncFailures()).isEqualTo(1);
    }
  }

  @Test
  void aFailedCloseLeavesABufferThatReopensByScanning() throws Exception {
    SegmentedDiskBuffer buffer = open(small(dir()));
    for (long id = 0; id < 100; id++) {
      buffer.append(payload(id, 100));
    }
    channels.failForce(1, FaultInjectionTest::isSegmentWork);
    assertThatThrownBy(buffer::close).isInstanceOf(BufferIOException.class);

    try (SegmentedDiskBuffer reopened = open(small(dir()))) {
      assertThat(reopened.recoveryReport().cleanShutdown()).isFalse();
      assertThat(ids(readAll(reopened))).hasSize(100);
    }
  }
}
