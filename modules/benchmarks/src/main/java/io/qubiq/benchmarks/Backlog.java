package io.qubiq.benchmarks;

import io.qubiq.buffer.BufferOptions;
import io.qubiq.buffer.Durability;
import io.qubiq.buffer.SegmentedDiskBuffer;
import io.qubiq.buffer.WatermarkListener;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;

/** A cleanly closed buffer holding {@code mib} MiB of 4 KiB records, for the reopen benchmarks. */
final class Backlog {
  /** Offset and size of the seal block in a segment header (docs/formats/buffer.md). */
  private static final int SEAL_OFFSET = 64;
  private static final int SEAL_BYTES = 32;

  private Backlog() {}

  static BufferOptions options(Path dir) {
    return BufferOptions.defaults(dir).withMaxBytes(1L << 40).withDurability(Durability.NONE);
  }

  static Path write(int mib) throws Exception {
    Path dir = BenchFiles.newDirectory("qubiq-buffer-backlog");
    byte[] payload = new byte[4096];
    ThreadLocalRandom.current().nextBytes(payload);
    long records = ((long) mib << 20) / (4096 + 24);
    try (SegmentedDiskBuffer buffer = SegmentedDiskBuffer.open(options(dir),
        WatermarkListener.none())) {
      for (long i = 0; i < records; i++) {
        buffer.append(payload);
      }
    }
    return dir;
  }

  /**
   * Makes the next open a crash recovery that must scan every record: removes the clean-shutdown
   * marker and zeroes every segment's seal, as after a crash of a buffer with durability NONE.
   */
  static void forgetSeals(Path dir) throws IOException {
    Files.deleteIfExists(dir.resolve("clean.mark"));
    List<Path> segments;
    try (Stream<Path> files = Files.list(dir)) {
      segments = files.filter(f -> f.toString().endsWith(".seg")).toList();
    }
    for (Path segment : segments) {
      try (FileChannel channel = FileChannel.open(segment, StandardOpenOption.WRITE)) {
        channel.write(ByteBuffer.allocate(SEAL_BYTES), SEAL_OFFSET);
      }
    }
  }

  static long bytes(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(f -> f.toString().endsWith(".seg")).mapToLong(f -> f.toFile().length())
          .sum();
    }
  }
}
