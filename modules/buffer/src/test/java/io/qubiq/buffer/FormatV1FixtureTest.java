package io.qubiq.buffer;

import static io.qubiq.buffer.TestBuffers.idOf;
import static io.qubiq.buffer.TestBuffers.readAll;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Buffers written by format version 1 (stored fixtures) must keep opening, unchanged. */
class FormatV1FixtureTest {
  @TempDir Path temp;

  private Path fixture(String name) throws Exception {
    Path source = Path.of(getClass().getResource("/format-v1/" + name).toURI());
    Path copy = temp.resolve(name);
    TestBuffers.copyTree(source, copy);
    return copy;
  }

  private static void assertFixtureRecords(List<BufferedRecord> records) {
    assertThat(records).hasSize(FormatV1FixtureWriter.RECORDS - FormatV1FixtureWriter.ACKNOWLEDGED);
    for (int i = 0; i < records.size(); i++) {
      long id = FormatV1FixtureWriter.ACKNOWLEDGED + i;
      assertThat(idOf(records.get(i).payload())).isEqualTo(id);
      assertThat(records.get(i).payload())
          .hasSize(Math.max(8, FormatV1FixtureWriter.size(id)));
      assertThat(records.get(i).sequence()).isEqualTo(id + 1);
    }
  }

  @Test
  void theCleanlyClosedVersionOneFixtureOpensWithoutAScanAndKeepsItsRecords() throws Exception {
    Path dir = fixture("clean");
    try (SegmentedDiskBuffer buffer = SegmentedDiskBuffer.open(
        FormatV1FixtureWriter.options(dir), WatermarkListener.none())) {
      RecoveryReport report = buffer.recoveryReport();
      assertThat(report.cleanShutdown()).isTrue();
      assertThat(report.segmentsScanned()).isZero();
      assertThat(report.intact()).isTrue();
      assertFixtureRecords(readAll(buffer));
      assertThat(buffer.append(new byte[] {1})).isGreaterThan(FormatV1FixtureWriter.RECORDS);
    }
  }

  @Test
  void theCrashedVersionOneFixtureKeepsItsRecordsAndDiscardsTheTornTail() throws Exception {
    Path dir = fixture("crashed");
    try (SegmentedDiskBuffer buffer = SegmentedDiskBuffer.open(
        FormatV1FixtureWriter.options(dir), WatermarkListener.none())) {
      RecoveryReport report = buffer.recoveryReport();
      assertThat(report.cleanShutdown()).isFalse();
      assertThat(report.segmentsScanned()).isPositive();
      assertThat(report.reason()).contains(RecoveryReport.Reason.TORN_TAIL);
      assertThat(report.bytesDiscarded()).isPositive();
      assertFixtureRecords(readAll(buffer));
    }
  }
}
