package io.qubiq.buffer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

/** Small helpers shared by the disk buffer tests. */
final class TestBuffers {
  private TestBuffers() {}

  /** Small segments so tests roll often; no fsync unless a test asks for one. */
  static BufferOptions small(Path dir) {
    return BufferOptions.defaults(dir)
        .withSegmentBytes(64 * 1024)
        .withMaxBytes(16L << 20)
        .withDurability(Durability.NONE);
  }

  /** A payload whose bytes are a function of its id and size, so garbage is recognisable. */
  static byte[] payload(long id, int size) {
    byte[] bytes = new byte[Math.max(size, 8)];
    ByteBuffer.wrap(bytes).putLong(0, id);
    for (int i = 8; i < bytes.length; i++) {
      bytes[i] = (byte) (id * 31 + i * 7);
    }
    return bytes;
  }

  /** The id of a payload made by {@link #payload}; throws if its bytes are not such a payload. */
  static long idOf(byte[] bytes) {
    long id = ByteBuffer.wrap(bytes).getLong(0);
    if (!Arrays.equals(bytes, payload(id, bytes.length))) {
      throw new AssertionError("payload bytes do not match their id " + id);
    }
    return id;
  }

  /** Everything the reader can see now, without acknowledging. */
  static List<BufferedRecord> readAll(DurableBuffer buffer) throws BufferException {
    List<BufferedRecord> all = new ArrayList<>();
    List<BufferedRecord> batch = buffer.reader().peek(Integer.MAX_VALUE, Long.MAX_VALUE);
    all.addAll(batch);
    return all;
  }

  static List<Path> segmentFiles(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(f -> f.getFileName().toString().endsWith(".seg")).sorted().toList();
    }
  }

  static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path source : files.toList()) {
        Path target = to.resolve(from.relativize(source).toString());
        if (Files.isDirectory(source)) {
          Files.createDirectories(target);
        } else {
          Files.copy(source, target, StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
  }

  static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : files.sorted((a, b) -> b.getNameCount() - a.getNameCount()).toList()) {
        Files.delete(p);
      }
    }
  }
}
