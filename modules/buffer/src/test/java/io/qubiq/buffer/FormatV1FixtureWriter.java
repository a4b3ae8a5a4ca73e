package io.qubiq.buffer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * Generates the format-version-1 fixtures under {@code src/test/resources/format-v1}. Run once
 * per format version, by hand, and commit the output; {@link FormatV1FixtureTest} then proves
 * every later build still opens them:
 *
 * <pre>
 * java -cp target/test-classes:target/classes io.qubiq.buffer.FormatV1FixtureWriter \
 *     src/test/resources/format-v1
 * </pre>
 *
 * <p>{@code clean/}: {@link #RECORDS} records, the first {@link #ACKNOWLEDGED} acknowledged,
 * closed cleanly. {@code crashed/}: the same, stopped without a close, plus the body of one more
 * record whose length word was never written (an interrupted append).
 */
public final class FormatV1FixtureWriter {
  static final int RECORDS = 200;
  static final int ACKNOWLEDGED = 50;

  private FormatV1FixtureWriter() {}

  static int size(long id) {
    return 1 + (int) ((id * 53) % 700);
  }

  static BufferOptions options(Path dir) {
    return TestBuffers.small(dir);
  }

  public static void main(String[] args) throws Exception {
    Path root = Path.of(args[0]);
    write(root.resolve("clean"), true);
    write(root.resolve("crashed"), false);
  }

  private static void write(Path dir, boolean clean) throws Exception {
    if (Files.exists(dir)) {
      throw new IOException(dir + " exists; fixtures are written once");
    }
    SegmentedDiskBuffer buffer = SegmentedDiskBuffer.open(options(dir), WatermarkListener.none());
    long acknowledged = 0;
    for (long id = 0; id < RECORDS; id++) {
      long sequence = buffer.append(TestBuffers.payload(id, size(id)));
      if (id == ACKNOWLEDGED - 1) {
        acknowledged = sequence;
      }
    }
    buffer.reader().acknowledge(acknowledged);
    if (clean) {
      buffer.close();
    } else {
      buffer.simulateCrash();
      writeTornRecord(TestBuffers.segmentFiles(dir));
    }
    Files.deleteIfExists(dir.resolve(DirectoryLock.FILE_NAME));
  }

  private static void writeTornRecord(List<Path> segments) throws IOException {
    Path last = segments.get(segments.size() - 1);
    try (FileChannel channel = FileChannel.open(last, StandardOpenOption.READ,
        StandardOpenOption.WRITE)) {
      ByteBuffer all = ByteBuffer.allocate((int) channel.size()).order(ByteOrder.LITTLE_ENDIAN);
      channel.read(all, 0);
      int offset = SegmentHeader.BYTES;
      while (all.getInt(offset) != 0) {
        offset += RecordFormat.frameBytes(all.getInt(offset));
      }
      ByteBuffer body = ByteBuffer.allocate(16 + 40).order(ByteOrder.LITTLE_ENDIAN);
      body.putLong(0, RECORDS + 1).putLong(8, System.currentTimeMillis());
      for (int i = 16; i < body.capacity(); i++) {
        body.put(i, (byte) 0x5A);
      }
      channel.write(body, offset + RecordFormat.SEQUENCE_OFFSET);
    }
  }
}
