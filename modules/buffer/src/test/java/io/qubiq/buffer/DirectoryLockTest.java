package io.qubiq.buffer;

import static io.qubiq.buffer.TestBuffers.small;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One owner per buffer directory; a second opener is told who holds it. */
class DirectoryLockTest {
  @TempDir Path temp;

  private Path dir() {
    return temp.resolve("buffer");
  }

  @Test
  void aSecondOpenerInTheSameProcessFailsNamingThisProcessPid() throws Exception {
    try (SegmentedDiskBuffer first = SegmentedDiskBuffer.open(small(dir()),
        WatermarkListener.none())) {
      long pid = ProcessHandle.current().pid();
      assertThatThrownBy(() -> SegmentedDiskBuffer.open(small(dir()), WatermarkListener.none()))
          .isInstanceOfSatisfying(BufferLockedException.class, e -> {
            assertThat(e.holderPid()).hasValue(pid);
            assertThat(e.directory()).isEqualTo(dir());
          })
          .hasMessageContaining("PID " + pid)
          .hasMessageContaining(dir().toString());
      first.append(new byte[] {1});
    }
    try (SegmentedDiskBuffer again = SegmentedDiskBuffer.open(small(dir()),
        WatermarkListener.none())) {
      assertThat(again.stats().records()).isEqualTo(1);
    }
  }

  @Test
  void anOpenerWhileAnotherProcessHoldsTheDirectoryFailsNamingThatPid() throws Exception {
    try (ChildJvm child = ChildJvm.start(LockHolderChild.class, temp.resolve("child.err"),
        dir().toString())) {
      await().atMost(Duration.ofSeconds(60))
          .until(() -> !child.lines.isEmpty() || !child.process.isAlive());
      assertThat(child.lines).first().asString().startsWith("LOCKED ");
      long childPid = child.process.pid();

      assertThatThrownBy(() -> SegmentedDiskBuffer.open(small(dir()), WatermarkListener.none()))
          .isInstanceOfSatisfying(BufferLockedException.class,
              e -> assertThat(e.holderPid()).hasValue(childPid))
          .hasMessageContaining("PID " + childPid);

      child.kill();
    }
    try (SegmentedDiskBuffer buffer = SegmentedDiskBuffer.open(small(dir()),
        WatermarkListener.none())) {
      assertThat(buffer.recoveryReport().findings()).isEmpty();
    }
  }
}
