package io.qubiq.buffer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A buffer written by a newer gateway is refused before anything in its directory changes; a
 * buffer from before the format file existed still opens. Without the gate, a newer segment header
 * fails version 1's check and recovery sets the whole segment aside as damage (what the second test
 * would catch).
 */
class BufferFormatTest {
  @TempDir Path temp;

  @Test
  void aBufferFromBeforeTheFormatFileOpensAndIsMarkedVersionOne() throws Exception {
    Path dir = temp.resolve("clean");
    TestBuffers.copyTree(Path.of(getClass().getResource("/format-v1/clean").toURI()), dir);
    assertThat(dir.resolve("FORMAT")).doesNotExist();

    try (SegmentedDiskBuffer buffer = SegmentedDiskBuffer.open(
        FormatV1FixtureWriter.options(dir), WatermarkListener.none())) {
      assertThat(buffer.recoveryReport().intact()).isTrue();
    }
    assertThat(Files.readString(dir.resolve("FORMAT"))).isEqualTo("qubiq-buffer format 1\n");
  }

  @Test
  void aBufferMarkedByANewerGatewayIsRefusedAndNothingInItChanges() throws Exception {
    Path dir = bufferWithRecords();
    Files.writeString(dir.resolve("FORMAT"), "qubiq-buffer format 2\n");
    Map<String, String> before = contents(dir);

    assertThatThrownBy(() -> SegmentedDiskBuffer.open(TestBuffers.small(dir), WatermarkListener.none()))
        .isInstanceOf(BufferFormatException.class)
        .hasMessageContaining(dir.resolve("FORMAT").toString())
        .hasMessageContaining("format version 2, newer than version 1")
        .hasMessageContaining("Nothing was changed");
    assertThat(contents(dir)).isEqualTo(before);
  }

  @Test
  void aSegmentWrittenByANewerGatewayIsRefusedEvenWhenTheFormatFileIsGone() throws Exception {
    Path dir = bufferWithRecords();
    Files.delete(dir.resolve("FORMAT"));
    Path segment = TestBuffers.segmentFiles(dir).get(0);
    writeVersion(segment, 2, true);
    Map<String, String> before = contents(dir);

    assertThatThrownBy(() -> SegmentedDiskBuffer.open(TestBuffers.small(dir), WatermarkListener.none()))
        .isInstanceOf(BufferFormatException.class)
        .hasMessageContaining(segment.toString())
        .hasMessageContaining("format version 2");
    assertThat(contents(dir)).as("nothing set aside, nothing deleted").isEqualTo(before);
  }

  @Test
  void aVersionFieldChangedByDamageIsDamageNotANewerFormat() throws Exception {
    Path dir = bufferWithRecords();
    Path segment = TestBuffers.segmentFiles(dir).get(0);
    writeVersion(segment, 3, false); // the identity checksum no longer matches

    try (SegmentedDiskBuffer buffer = SegmentedDiskBuffer.open(TestBuffers.small(dir),
        WatermarkListener.none())) {
      assertThat(buffer.recoveryReport().intact()).isFalse();
    }
  }

  private Path bufferWithRecords() throws BufferException {
    Path dir = temp.resolve("buffer");
    try (SegmentedDiskBuffer buffer = SegmentedDiskBuffer.open(TestBuffers.small(dir),
        WatermarkListener.none())) {
      for (long id = 0; id < 10; id++) {
        buffer.append(TestBuffers.payload(id, 100));
      }
    }
    return dir;
  }

  /** Sets the identity block's version, with its checksum updated or left stale. */
  private static void writeVersion(Path segment, int version, boolean resealed) throws IOException {
    try (FileChannel file = FileChannel.open(segment, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      ByteBuffer identity = ByteBuffer.allocate(64).order(ByteOrder.LITTLE_ENDIAN);
      file.read(identity, 0);
      identity.putInt(4, version);
      if (resealed) {
        CRC32C crc = new CRC32C();
        crc.update(identity.array(), 0, 60);
        identity.putInt(60, (int) crc.getValue());
      }
      file.write(identity.clear(), 0);
    }
  }

  /** Every file but the lock (whose PID line each opener rewrites), with its bytes. */
  private static Map<String, String> contents(Path dir) throws IOException {
    Map<String, String> files = new TreeMap<>();
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path file : walk.filter(Files::isRegularFile).toList()) {
        if (!file.getFileName().toString().equals("buffer.lock")) {
          files.put(dir.relativize(file).toString(), java.util.HexFormat.of().formatHex(Files.readAllBytes(file)));
        }
      }
    }
    return files;
  }
}
