package io.qubiq.buffer;

import io.qubiq.fileops.FileOps;
import io.qubiq.fileops.NewerFormatException;
import io.qubiq.fileops.StoreFormat;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The buffer's format gate, run on open under the directory lock before anything in the directory
 * changes: the directory's {@code FORMAT} line ({@link StoreFormat}) and, in case that file was
 * lost, the identity block of every segment. Either one written by a newer gateway refuses the
 * open with a {@link NewerFormatException}; a damaged segment header is left to recovery, which
 * sets it aside as damage. After a successful open the current line is recorded.
 */
final class BufferFormat {
  static final StoreFormat FORMAT = new StoreFormat("qubiq-buffer", "buffer",
      SegmentHeader.FORMAT_VERSION);

  private BufferFormat() {}

  /** Refuses a newer store; answers what {@link #record} needs. Reads only. */
  static StoreFormat.Check check(Path dir, FileOps files) throws IOException {
    StoreFormat.Check check = FORMAT.check(dir);
    List<Path> segments;
    try (Stream<Path> listing = Files.list(dir)) {
      segments = listing.filter(f -> Segment.parseBase(f).isPresent()).sorted().toList();
    }
    for (Path segment : segments) {
      Optional<Integer> newer = newerVersion(segment, files);
      if (newer.isPresent()) {
        throw new NewerFormatException(segment, "buffer", newer.get(), FORMAT.version(), dir);
      }
    }
    return check;
  }

  static void record(Path dir, StoreFormat.Check check, FileOps files) throws IOException {
    FORMAT.record(dir, check, files);
  }

  private static Optional<Integer> newerVersion(Path segment, FileOps files) throws IOException {
    try (FileChannel channel = files.open(segment, EnumSet.of(StandardOpenOption.READ))) {
      ByteBuffer identity = ByteBuffer.allocate(SegmentHeader.IDENTITY_BYTES);
      while (identity.hasRemaining() && channel.read(identity) > 0) {
        // keep reading
      }
      return identity.hasRemaining() ? Optional.empty() : SegmentHeader.newerVersion(identity.flip());
    }
  }
}
