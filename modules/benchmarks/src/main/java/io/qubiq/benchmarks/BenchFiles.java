package io.qubiq.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Where benchmark files go, and how they are removed. */
final class BenchFiles {
  private BenchFiles() {}

  /** A new, empty directory under {@code -Dbench.dir} (default: java.io.tmpdir). */
  static Path newDirectory(String prefix) throws IOException {
    Path base = Path.of(System.getProperty("bench.dir", System.getProperty("java.io.tmpdir")));
    Files.createDirectories(base);
    return Files.createTempDirectory(base, prefix);
  }

  static void delete(Path dir) throws IOException {
    if (dir == null || !Files.exists(dir)) {
      return;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  /** {@link #delete}, printing instead of throwing what it could not delete: for scratch files at exit. */
  static void deleteQuietly(Path dir) {
    if (dir == null || !Files.exists(dir)) {
      return;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> {
        try {
          Files.deleteIfExists(p);
        } catch (IOException e) {
          System.err.println("could not delete " + p + ": " + e.getMessage());
        }
      });
    } catch (IOException e) {
      System.err.println("could not delete " + dir + ": " + e.getMessage());
    }
  }
}
