package io.qubiq.buffer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.qubiq.fileops.FileOps;
import io.qubiq.fileops.smalldisk.SmallDisk;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The preparer on a disk with less room than a segment (a 1 MiB tmpfs, {@link SmallDisk}; skipped
 * with the reason where it may not mount): with every durability the segment is refused by the
 * kernel's "No space left on device" from a {@code write}, before anything is mapped, and its file
 * is gone. Would catch a preparer that reserves pages by touching a mapping (the old ALWAYS path):
 * its fault is an {@link InternalError} that compiled code raises asynchronously, so a warm JVM
 * could hand the writer a segment with a page that is not there (CI, 2026-12-02).
 */
class SegmentPreparerOnAFullDiskTest {
  private static final int SEGMENT = 512 * 1024;

  @TempDir Path temp;
  private SmallDisk disk;

  @BeforeEach
  void mountSmallFileSystem() throws Exception {
    disk = SmallDisk.mount(temp.resolve("disk"), 1);
    Assumptions.assumeTrue(disk.mounted(), () -> "needs to mount a 1 MiB tmpfs; skipped: " + disk.whyNot());
  }

  @AfterEach
  void unmount() throws Exception {
    if (disk != null) {
      disk.close();
    }
  }

  @ParameterizedTest(name = "fsynced appends: {0}")
  @ValueSource(booleans = {false, true})
  void aSegmentTheDiskCannotHoldIsRefusedByAWriteBeforeAnythingIsMapped(boolean fsyncedAppends)
      throws Exception {
    Path dir = Files.createDirectories(disk.path().resolve("buffer"));
    Path filler = disk.path().resolve("filler");
    disk.fill(filler);
    Files.delete(filler);
    try (var ballast = Files.newOutputStream(filler)) {
      ballast.write(new byte[(int) (disk.usable() - SEGMENT / 2)]); // leaves half a segment free
    }

    try (SegmentPreparer preparer = new SegmentPreparer(dir, FileOps.system(), SEGMENT, fsyncedAppends)) {
      IOException refused = catchThrowableOfType(preparer::take, IOException.class);

      assertThat(refused).as("the take is refused").isNotNull();
      assertThat(DiskFull.causedBy(refused)).as(refused.toString()).isTrue();
      assertThat(refused).as("refused by write, not by a fault in a mapping")
          .hasMessageContaining(DiskFull.NO_SPACE)
          .hasMessageNotContaining("could not be backed");
      assertThat(Stream.iterate((Throwable) refused, t -> t != null, Throwable::getCause))
          .noneMatch(InternalError.class::isInstance);
    }
    try (Stream<Path> left = Files.list(dir)) {
      assertThat(left).as("the refused file is deleted").isEmpty();
    }
  }
}
