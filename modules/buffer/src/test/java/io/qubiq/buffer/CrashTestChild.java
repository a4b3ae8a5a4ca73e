package io.qubiq.buffer;

import java.io.PrintStream;
import java.nio.file.Path;

/**
 * Child process of {@link KillNineCrashTest}: appends forever from several threads and prints
 * {@code A thread counter sequence} after each append has returned. Killed with SIGKILL.
 */
public final class CrashTestChild {
  private CrashTestChild() {}

  /** Payload id of one append: cycle, thread and per-thread counter. */
  static long id(int cycle, int thread, long counter) {
    return cycle * 1_000_000_000L + thread * 100_000_000L + counter;
  }

  static int size(long counter) {
    return 16 + (int) ((counter * 13) % 300);
  }

  static BufferOptions options(Path dir, Durability durability) {
    return BufferOptions.defaults(dir)
        .withSegmentBytes(256 * 1024)
        .withMaxBytes(256L << 20)
        .withDurability(durability)
        .withPeriodicFsyncIntervalMs(5);
  }

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    Durability durability = Durability.valueOf(args[1]);
    int threads = Integer.parseInt(args[2]);
    int cycle = Integer.parseInt(args[3]);
    PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out),
        true, "UTF-8");
    DurableBuffer buffer = SegmentedDiskBuffer.open(options(dir, durability),
        WatermarkListener.none());
    out.println("READY");
    for (int t = 0; t < threads; t++) {
      int thread = t;
      Thread worker = new Thread(() -> {
        for (long counter = 0; ; counter++) {
          try {
            long sequence = buffer.append(
                TestBuffers.payload(id(cycle, thread, counter), size(counter)));
            out.println("A " + thread + " " + counter + " " + sequence);
          } catch (BufferException e) {
            out.println("E " + e);
            return;
          }
        }
      });
      worker.start();
    }
    Thread.currentThread().join();
  }
}
