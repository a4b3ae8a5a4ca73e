package io.qubiq.buffer;

import java.nio.file.Path;

/** Child process of {@link DirectoryLockTest}: holds a buffer open until its stdin closes. */
public final class LockHolderChild {
  private LockHolderChild() {}

  public static void main(String[] args) throws Exception {
    try (DurableBuffer buffer = SegmentedDiskBuffer.open(TestBuffers.small(Path.of(args[0])),
        WatermarkListener.none())) {
      System.out.println("LOCKED " + ProcessHandle.current().pid());
      System.out.flush();
      while (System.in.read() >= 0) {
        // hold the lock until the parent closes stdin or kills us
      }
    }
  }
}
