package io.qubiq.buffer;

import io.qubiq.fileops.FileOps;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.EnumSet;
import java.util.Optional;
import java.util.zip.CRC32C;

/**
 * File {@code clean.mark}: written last by an orderly close, after every segment and its seal and
 * the watermark were fsynced; removed first thing on open. Its presence means every seal of a
 * segment whose base is below the recorded next sequence can be trusted, so the open skips the
 * record scan. The removal is not fsynced (that would cost an open a few milliseconds): a marker
 * that reappears after power loss still only vouches for segments that existed at that close,
 * which are never written again except for their seal.
 *
 * <pre>
 *  0 4 magic 0x4B4C4351 ("QCLK" in file order)
 *  4 4 format version, 1
 *  8 8 next sequence at close
 * 16 4 CRC32C of bytes 0..16
 * </pre>
 *
 * <p>Written as {@code clean.mark.tmp}, fsynced, renamed, directory fsynced: a crash leaves either
 * no marker (the open scans) or a whole one.
 */
final class CleanShutdownMarker {
  static final String FILE_NAME = "clean.mark";
  private static final int MAGIC = 0x4B4C4351;
  private static final int BYTES = 20;

  private CleanShutdownMarker() {}

  static void write(Path dir, FileOps channels, long nextSequence) throws IOException {
    ByteBuffer b = ByteBuffer.allocate(BYTES).order(ByteOrder.LITTLE_ENDIAN);
    b.putInt(0, MAGIC).putInt(4, 1).putLong(8, nextSequence);
    CRC32C crc = new CRC32C();
    crc.update(b.array(), 0, 16);
    b.putInt(16, (int) crc.getValue());
    Path temp = dir.resolve(FILE_NAME + ".tmp");
    try (FileChannel channel = channels.open(temp, EnumSet.of(StandardOpenOption.CREATE,
        StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE))) {
      while (b.hasRemaining()) {
        channel.write(b, b.position());
      }
      channel.force(true);
    }
    channels.move(temp, dir.resolve(FILE_NAME));
    channels.syncDirectory(dir);
  }

  /** Reads and removes the marker; the next sequence it recorded if it was whole. */
  static Optional<Long> consume(Path dir, FileOps files) throws IOException {
    Path file = dir.resolve(FILE_NAME);
    files.deleteIfExists(dir.resolve(FILE_NAME + ".tmp"));
    if (!Files.exists(file)) {
      return Optional.empty();
    }
    byte[] bytes = Files.readAllBytes(file);
    files.deleteIfExists(file);
    if (bytes.length != BYTES) {
      return Optional.empty();
    }
    ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    CRC32C crc = new CRC32C();
    crc.update(bytes, 0, 16);
    if (b.getInt(0) != MAGIC || b.getInt(4) != 1 || (int) crc.getValue() != b.getInt(16)) {
      return Optional.empty();
    }
    return Optional.of(b.getLong(8));
  }
}
