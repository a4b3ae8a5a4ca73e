package io.qubiq.buffer;

import io.qubiq.fileops.FileOps;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.Set;

/**
 * A {@link FileOps} that changes only how files are opened: the namespace operations (rename,
 * delete, directory create and sync) go to the real file system. The seam for tests that inject
 * a channel failing the Nth write or fsync. Record bytes themselves are stored through a memory
 * mapping obtained from the channel's {@link FileChannel#map}.
 */
@FunctionalInterface
public interface FileChannelFactory extends FileOps {

  @Override
  FileChannel open(Path path, Set<? extends OpenOption> options) throws IOException;

  @Override
  default void move(Path source, Path target) throws IOException {
    FileOps.system().move(source, target);
  }

  @Override
  default boolean deleteIfExists(Path path) throws IOException {
    return FileOps.system().deleteIfExists(path);
  }

  @Override
  default void createDirectories(Path dir) throws IOException {
    FileOps.system().createDirectories(dir);
  }

  @Override
  default void syncDirectory(Path dir) throws IOException {
    FileOps.system().syncDirectory(dir);
  }

  /** The real file system. */
  static FileChannelFactory system() {
    return (path, options) -> FileOps.system().open(path, options);
  }
}
