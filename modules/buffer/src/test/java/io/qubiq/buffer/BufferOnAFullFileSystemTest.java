package io.qubiq.buffer;

import static io.qubiq.buffer.TestBuffers.idOf;
import static io.qubiq.buffer.TestBuffers.payload;
import static io.qubiq.buffer.TestBuffers.readAll;
import static io.qubiq.buffer.TestBuffers.small;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The disk buffer on a really full file system: a 2 MiB tmpfs this test mounts (skipped with a
 * message where it may not mount, i.e. not as root), filled from outside. With every durability the
 * append that needs a new segment is refused as "the disk is full" with nothing stored (with
 * {@code always} the kernel cannot back a page of the mapping: a fault, not an IOException, that the
 * preparer turns into one), every append that returned survives a reopen intact, and appends work
 * again once space is freed. Would catch: a fault that kills the buffer's thread or the JVM, a torn
 * segment, an append reported stored that is not.
 */
class BufferOnAFullFileSystemTest {
  @TempDir Path temp;
  private Path mount;

  @BeforeEach
  void mountSmallFileSystem() throws Exception {
    Path dir = Files.createDirectories(temp.resolve("disk"));
    String out = run("mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", dir.toString());
    Assumptions.assumeTrue("tmpfs".equals(Files.getFileStore(dir).type()),
        () -> "needs to mount a 2 MiB tmpfs (root with CAP_SYS_ADMIN); skipped: " + out.trim());
    mount = dir;
  }

  @AfterEach
  void unmount() throws Exception {
    if (mount != null) {
      run("umount", mount.toString());
    }
  }

  private static String run(String... command) throws Exception {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    p.waitFor(30, TimeUnit.SECONDS);
    return out;
  }

  private static void fill(Path filler) throws IOException {
    ByteBuffer chunk = ByteBuffer.allocate(16 * 1024);
    try (FileChannel out = FileChannel.open(filler, StandardOpenOption.CREATE_NEW,
        StandardOpenOption.WRITE)) {
      while (true) {
        chunk.clear();
        while (chunk.hasRemaining()) {
          out.write(chunk);
        }
      }
    } catch (IOException e) {
      assertThat(e.getMessage()).contains("No space left on device");
    }
  }

  @ParameterizedTest
  @EnumSource(Durability.class)
  void theAppendThatNeedsASegmentOnAFullDiskIsRefusedAndEveryEarlierOneSurvives(Durability durability)
      throws Exception {
    Path dir = mount.resolve("buffer");
    Path filler = mount.resolve("filler");
    BufferOptions options = small(dir).withDurability(durability);
    List<Long> stored = new ArrayList<>();
    BufferIOException refused = null;
    try (SegmentedDiskBuffer buffer = SegmentedDiskBuffer.open(options, WatermarkListener.none())) {
      buffer.append(payload(0, 500));
      stored.add(0L);
      fill(filler);
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
