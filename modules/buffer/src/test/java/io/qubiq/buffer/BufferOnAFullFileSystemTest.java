package io.qubiq.buffer;

import static io.qubiq.buffer.TestBuffers.idOf;
import static io.qubiq.buffer.TestBuffers.payload;
import static io.qubiq.buffer.TestBuffers.readAll;
import static io.qubiq.buffer.TestBuffers.small;
import static org.assertj.core.api.Assertions.assertThat;

import io.qubiq.fileops.smalldisk.SmallDisk;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The disk buffer on a really full file system: a 2 MiB tmpfs this test mounts ({@link SmallDisk};
 * skipped with the reason where it may not mount, i.e. not as root), filled from outside while the
 * preparer is making the next segment (it starts right after the first append). With every
 * durability the append that needs a new segment is refused as "the disk is full" with nothing
 * stored, every append that returned survives a reopen intact, and appends work again once space
 * is freed. Would catch: a fault that kills the buffer's thread or the JVM, a torn segment, an
 * append reported stored that is not, and (the CI failure of 2026-12-02) a segment handed to the
 * writer with a page the disk could not back: the preparer's fault on it was asynchronous, the
 * writer's append into that page then faulted on the producer's thread.
 */
class BufferOnAFullFileSystemTest {
  @TempDir Path temp;
  private SmallDisk disk;

  @BeforeEach
  void mountSmallFileSystem() throws Exception {
    disk = SmallDisk.mount(temp.resolve("disk"), 2);
    Assumptions.assumeTrue(disk.mounted(), () -> "needs to mount a 2 MiB tmpfs; skipped: " + disk.whyNot());
  }

  @AfterEach
  void unmount() throws Exception {
    if (disk != null) {
      disk.close();
    }
  }

  @ParameterizedTest
  @EnumSource(Durability.class)
  void theAppendThatNeedsASegmentOnAFullDiskIsRefusedAndEveryEarlierOneSurvives(Durability durability)
      throws Exception {
    Path dir = disk.path().resolve("buffer");
    Path filler = disk.path().resolve("filler");
    BufferOptions options = small(dir).withDurability(durability);
    List<Long> stored = new ArrayList<>();
    BufferIOException refused = null;
    try (SegmentedDiskBuffer buffer = SegmentedDiskBuffer.open(options, WatermarkListener.none())) {
      buffer.append(payload(0, 500));
      stored.add(0L);
      disk.fill(filler);
      for (long id = 1; id < 1000 && refused == null; id++) {
        try {
          buffer.append(payload(id, 500));
          stored.add(id);
        } catch (BufferIOException e) {
          refused = e;
        }
      }
      assertThat(refused).as("an append refused within 1000 (64 KiB segments)").isNotNull();
      assertThat(refused.diskFull()).as(refused.getMessage()).isTrue();
      assertThat(refused).hasMessageContaining("nothing was stored").hasMessageContaining("the disk is full");
      assertThat(readAll(buffer).stream().map(r -> idOf(r.payload())).toList()).isEqualTo(stored);

      Files.delete(filler);
      buffer.append(payload(5000, 500));
      stored.add(5000L);
    }
    try (SegmentedDiskBuffer buffer = SegmentedDiskBuffer.open(small(dir), WatermarkListener.none())) {
      assertThat(buffer.recoveryReport().intact()).as(buffer.recoveryReport().toString()).isTrue();
      assertThat(readAll(buffer).stream().map(r -> idOf(r.payload())).toList()).isEqualTo(stored);
    }
  }
}
