package io.qubiq.fileops;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Set;

/**
 * {@link FileOps} on the real file system: each method is the {@code java.nio} call it names, and what it
 * creates is owner-only ({@link OwnerOnly}: files {@code 0600}, directories {@code 0700}).
 */
final class SystemFileOps implements FileOps {
  static final SystemFileOps INSTANCE = new SystemFileOps();

  private SystemFileOps() {}

  @Override
  public FileChannel open(Path path, Set<? extends OpenOption> options) throws IOException {
    return FileChannel.open(path, options, OwnerOnly.fileAttribute());
  }

  @Override
  public void move(Path source, Path target) throws IOException {
    Files.move(source, target, StandardCopyOption.ATOMIC_MOVE);
  }

  @Override
  public boolean deleteIfExists(Path path) throws IOException {
    return Files.deleteIfExists(path);
  }

  @Override
  public void createDirectories(Path dir) throws IOException {
    OwnerOnly.createDirectories(dir);
  }

  @Override
  public void syncDirectory(Path dir) throws IOException {
    try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
      channel.force(true);
    }
  }
}
