package io.qubiq.buffer;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.Set;

/**
 * Opens every file channel the disk buffer writes or forces through: segment files, the ack
 * watermark and the shutdown marker. The seam exists so tests can inject a channel that fails the
 * Nth write or fsync. Record bytes themselves are stored through a memory mapping obtained from
 * the channel's {@link FileChannel#map}.
 */
@FunctionalInterface
public interface FileChannelFactory {

  FileChannel open(Path path, Set<? extends OpenOption> options) throws IOException;

  /** The real file system. */
  static FileChannelFactory system() {
    return (path, options) -> FileChannel.open(path, options);
  }
}
