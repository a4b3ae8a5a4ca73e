package io.qubiq.fileops;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.Set;

/**
 * Every file operation a store's durability depends on, in one place, so a test can record them
 * (the power-loss tests, {@link io.qubiq.fileops.powerloss}) or fail them (fault injection).
 *
 * <p><b>What goes through here.</b> Opening a file (the returned channel carries writes at a
 * position, {@link FileChannel#force force}, {@link FileChannel#truncate truncate} and memory
 * mappings, so a store's hot path costs no more than a plain {@link FileChannel}), and the
 * namespace: an atomic rename, a delete, creating a directory, and fsyncing a directory so that
 * the creates, renames and deletes in it survive power loss. Reads and listings may use {@code
 * java.nio.file} directly: they change nothing.
 *
 * <p><b>Threading.</b> Implementations are safe for concurrent use.
 */
public interface FileOps {

  /** Opens (or creates, per {@code options}) a file; the channel's writes and forces count. */
  FileChannel open(Path path, Set<? extends OpenOption> options) throws IOException;

  /** Renames {@code source} to {@code target} atomically, replacing the target if it exists. */
  void move(Path source, Path target) throws IOException;

  /** Deletes a file; false when there was none. */
  boolean deleteIfExists(Path path) throws IOException;

  /** Creates a directory and its missing parents; nothing when it exists. */
  void createDirectories(Path dir) throws IOException;

  /** Fsyncs a directory: the creates, renames and deletes in it so far survive power loss. */
  void syncDirectory(Path dir) throws IOException;

  /** The real file system; what it creates is owner-only ({@link OwnerOnly}). */
  static FileOps system() {
    return SystemFileOps.INSTANCE;
  }
}
