package io.qubiq.buffer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qubiq.fileops.FileOps;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A kill that lands inside a segment roll before the new segment's rename: no record can be in a
 * segment that never got its name, so the next open must report no loss. Found by the audit
 * journal's kill -9 torture (issue 18 F): the roll raised the sequence floor file, which also names
 * the newest segment's base, before the rename, so a kill between the two left a floor naming a
 * segment that did not exist, and recovery reported "the newest segment is missing: records from
 * N on (how many is unknown) are lost" (a data-loss alarm and ledger entry after a crash that lost
 * nothing). The process death is simulated in-process: the rename throws an {@link Error} that
 * skips the roll's clean-up, and the buffer is then dropped as a crash would leave it (the page
 * cache, and so every write before the death, is kept).
 */
class RollInterruptedBeforeRenameTest {
  @TempDir Path dir;

  /** Stands for the process dying at the rename. */
  private static final class Death extends Error {
    Death() {
      super("the process died here");
    }
  }

  /** Real file operations whose rename of a segment into place dies, once armed. */
  private static final class DyingAtRename implements FileOps {
    private final FileOps real = FileOps.system();
    volatile boolean armed;

    @Override
    public FileChannel open(Path path, Set<? extends OpenOption> options) throws IOException {
      return real.open(path, options);
    }

    @Override
    public void move(Path source, Path target) throws IOException {
      if (armed && target.getFileName().toString().endsWith(".seg")) {
        throw new Death();
      }
      real.move(source, target);
    }

    @Override
    public boolean deleteIfExists(Path path) throws IOException {
      return real.deleteIfExists(path);
    }

    @Override
    public void createDirectories(Path path) throws IOException {
      real.createDirectories(path);
    }

    @Override
    public void syncDirectory(Path path) throws IOException {
      real.syncDirectory(path);
    }
  }

  private BufferOptions options(Durability durability) {
    return BufferOptions.defaults(dir).withSegmentBytes(BufferOptions.MIN_SEGMENT_BYTES)
        .withDurability(durability);
  }

  @ParameterizedTest
  @EnumSource(Durability.class)
  void aKillBeforeTheNewSegmentIsRenamedReportsNoLossAndKeepsEveryRecord(Durability durability)
      throws Exception {
    DyingAtRename files = new DyingAtRename();
    List<Long> appended = new ArrayList<>();
    SegmentedDiskBuffer buffer = SegmentedDiskBuffer.open(options(durability),
        WatermarkListener.none(), files);
    appended.add(buffer.append(TestBuffers.payload(0, 100)));
    buffer.reader().acknowledge(appended.get(0)); // an acknowledged record too: the floor moved
    files.armed = true;
    assertThatThrownBy(() -> {
      for (long id = 1; ; id++) {
        appended.add(buffer.append(TestBuffers.payload(id, 100)));
      }
    }).isInstanceOf(Death.class);
    buffer.simulateCrash();
    assertThat(appended).as("the roll came after the first segment filled").hasSizeGreaterThan(10);

    try (SegmentedDiskBuffer reopened = SegmentedDiskBuffer.open(options(durability),
        WatermarkListener.none())) {
      assertThat(reopened.recoveryReport().findings()).as("a roll that never renamed lost nothing")
          .isEmpty();
      assertThat(TestBuffers.readAll(reopened)).extracting(BufferedRecord::sequence)
          .containsExactlyElementsOf(appended.subList(1, appended.size()));
      assertThat(reopened.append(TestBuffers.payload(9_999, 10)))
          .as("no sequence handed out twice").isGreaterThan(appended.get(appended.size() - 1));
    }
  }
}
