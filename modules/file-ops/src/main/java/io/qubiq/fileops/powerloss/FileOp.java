package io.qubiq.fileops.powerloss;

/**
 * One entry of a {@link RecordingFileOps} log. Files are named by an id that follows them across
 * renames (as an inode does); paths are relative to the recorded directory, with {@code /}.
 */
public sealed interface FileOp {

  /** True for the operations that make earlier ones durable: a file fsync, a directory fsync. */
  default boolean barrier() {
    return false;
  }

  /** A file came into being under {@code path} (empty). */
  record Create(int file, String path) implements FileOp {}

  /** Bytes written at {@code position}, through the channel or found changed in a mapping. */
  record Write(int file, long position, byte[] bytes) implements FileOp {
    @Override
    public String toString() {
      return "Write[file=" + file + ", position=" + position + ", bytes=" + bytes.length + "]";
    }
  }

  /** The file cut to {@code size} bytes. */
  record Truncate(int file, long size) implements FileOp {}

  /** An fsync of one file: its earlier writes and truncations are durable. */
  record Force(int file) implements FileOp {
    @Override
    public boolean barrier() {
      return true;
    }
  }

  /** An atomic rename of the file to {@code to} (replacing what was there). */
  record Move(int file, String from, String to) implements FileOp {}

  /** The file's name removed. */
  record Delete(int file, String path) implements FileOp {}

  /** A directory created (with its parents). */
  record MakeDirectory(String path) implements FileOp {}

  /** An fsync of a directory: earlier renames and deletes in it are durable. */
  record SyncDirectory(String path) implements FileOp {
    @Override
    public boolean barrier() {
      return true;
    }
  }

  /** Something the workload wants to know the position of (an append returned, say). */
  record Note(Object event) implements FileOp {}

  /** The directory a path is in ({@code ""} for the recorded directory itself). */
  static String parent(String path) {
    int slash = path.lastIndexOf('/');
    return slash < 0 ? "" : path.substring(0, slash);
  }
}
