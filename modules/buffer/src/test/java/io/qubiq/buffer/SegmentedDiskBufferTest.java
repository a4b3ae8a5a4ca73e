package io.qubiq.buffer;

import static io.qubiq.buffer.TestBuffers.idOf;
import static io.qubiq.buffer.TestBuffers.payload;
import static io.qubiq.buffer.TestBuffers.readAll;
import static io.qubiq.buffer.TestBuffers.segmentFiles;
import static io.qubiq.buffer.TestBuffers.small;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Disk-only behaviour: reopen, recovery, trimming, fsync modes. */
class SegmentedDiskBufferTest {
  @TempDir Path temp;

  private Path dir() {
    return temp.resolve("buffer");
  }

  private SegmentedDiskBuffer open(BufferOptions options) throws BufferException {
    return SegmentedDiskBuffer.open(options, WatermarkListener.none());
  }

  private static List<Long> ids(List<BufferedRecord> records) {
    return records.stream().map(r -> idOf(r.payload())).toList();
  }

  private static List<Long> range(long fromInclusive, long toExclusive) {
    List<Long> ids = new ArrayList<>();
    for (long i = fromInclusive; i < toExclusive; i++) {
      ids.add(i);
    }
    return ids;
  }

  @Test
  void reopenAfterCleanCloseKeepsUnacknowledgedRecordsWithoutScanning() throws Exception {
    try (SegmentedDiskBuffer buffer = open(small(dir()))) {
      for (int i = 0; i < 2000; i++) {
        buffer.append(payload(i, 100 + i % 300));
      }
    }
    assertThat(dir().resolve(CleanShutdownMarker.FILE_NAME)).exists();

    try (SegmentedDiskBuffer buffer = open(small(dir()))) {
      RecoveryReport report = buffer.recoveryReport();
      assertThat(report.cleanShutdown()).isTrue();
      assertThat(report.segmentsScanned()).isZero();
      assertThat(report.segmentsTrusted()).isGreaterThan(1);
      assertThat(report.recordsRecovered()).isEqualTo(2000);
      assertThat(report.intact()).isTrue();
      assertThat(dir().resolve(CleanShutdownMarker.FILE_NAME)).doesNotExist();
      assertThat(ids(readAll(buffer))).isEqualTo(range(0, 2000));
    }
  }

  @Test
  void reopenedWithAnotherSegmentSizeKeepsEveryRecordInOrderAndWritesNewSegmentsAtTheNewSize()
      throws Exception {
    try (SegmentedDiskBuffer buffer = open(small(dir()))) {
      for (int i = 0; i < 1000; i++) {
        buffer.append(payload(i, 100 + i % 300));
      }
    }
    try (SegmentedDiskBuffer buffer = open(small(dir()).withSegmentBytes(256 * 1024))) {
      for (int i = 1000; i < 3000; i++) {
        buffer.append(payload(i, 100 + i % 300));
      }
    }
    SegmentedDiskBuffer crashed = open(small(dir()).withSegmentBytes(128 * 1024));
    for (int i = 3000; i < 4000; i++) {
      crashed.append(payload(i, 100 + i % 300));
    }
    crashed.simulateCrash();
    try (SegmentedDiskBuffer buffer = open(small(dir()))) {
      assertThat(buffer.recoveryReport().cleanShutdown()).isFalse();
      assertThat(buffer.recoveryReport().intact()).isTrue();
      assertThat(ids(readAll(buffer))).as("three sizes of segment, one crash").isEqualTo(range(0, 4000));
    }
  }

  @Test
  void reopenAfterACrashScansAndKeepsEveryPublishedRecord() throws Exception {
    SegmentedDiskBuffer crashed = open(small(dir()));
    for (int i = 0; i < 1500; i++) {
      crashed.append(payload(i, 200));
    }
    crashed.simulateCrash();

    try (SegmentedDiskBuffer buffer = open(small(dir()))) {
      RecoveryReport report = buffer.recoveryReport();
      assertThat(report.cleanShutdown()).isFalse();
      assertThat(report.segmentsScanned()).isPositive();
      assertThat(report.intact()).isTrue();
      assertThat(ids(readAll(buffer))).isEqualTo(range(0, 1500));
      assertThat(buffer.stats().usedBytes()).isEqualTo(1500L * RecordFormat.frameBytes(200));
    }
  }

  @Test
  void acknowledgementSurvivesReopenAndCrash() throws Exception {
    try (SegmentedDiskBuffer buffer = open(small(dir()))) {
      long last = 0;
      for (int i = 0; i < 1000; i++) {
        last = buffer.append(payload(i, 100));
      }
      buffer.reader().acknowledge(last - 400);
    }
    SegmentedDiskBuffer buffer = open(small(dir()));
    assertThat(ids(readAll(buffer))).isEqualTo(range(600, 1000));
    buffer.reader().acknowledge(buffer.stats().headSequence() + 99);
    buffer.simulateCrash();

    try (SegmentedDiskBuffer reopened = open(small(dir()))) {
      assertThat(ids(readAll(reopened))).isEqualTo(range(700, 1000));
    }
  }

  @Test
  void sequencesAreNeverReusedAcrossReopenEvenWhenEverythingWasAcknowledged() throws Exception {
    long last;
    try (SegmentedDiskBuffer buffer = open(small(dir()))) {
      last = buffer.appendBatch(List.of(payload(1, 10), payload(2, 10))).last();
      buffer.reader().acknowledge(last);
    }
    try (SegmentedDiskBuffer buffer = open(small(dir()))) {
      assertThat(buffer.stats().records()).isZero();
      assertThat(buffer.append(payload(3, 10))).isGreaterThan(last);
    }
  }

  @Test
  void aBacklogNoReaderHasReachedHoldsNoMappingsAndReadsBackWhole() throws Exception {
    // catches: every sealed segment of a backlog staying mapped, so a 1 GiB backlog counted as
    // 1.1 GiB of the gateway's resident size (issue 20's footprint), and a reader that cannot map
    // a segment again once the writer gave its mapping up
    try (SegmentedDiskBuffer buffer = open(small(dir()))) {
      for (int i = 0; i < 3000; i++) {
        buffer.append(payload(i, 500));
      }
      assertThat(segmentFiles(dir()).size()).isGreaterThan(10);
      assertThat(mappedSegments(dir())).as("segment files mapped by this process").isLessThanOrEqualTo(1);

      assertThat(ids(readAll(buffer))).isEqualTo(range(0, 3000));
      for (int i = 3000; i < 3200; i++) {
        buffer.append(payload(i, 500));
      }
      assertThat(ids(readAll(buffer))).isEqualTo(range(0, 3200));
    }
  }

  /** How many {@code .seg} files below {@code dir} this JVM has mapped now ({@code /proc/self/maps}). */
  private static long mappedSegments(Path dir) throws IOException {
    String prefix = dir.toRealPath().toString();
    try (Stream<String> lines = Files.lines(Path.of("/proc/self/maps"))) {
      return lines.filter(l -> l.contains(prefix) && l.endsWith(".seg")).map(l -> l.substring(l.indexOf('/')))
          .distinct().count();
    }
  }

  @Test
  void segmentsWhollyBelowTheWatermarkAreDeleted() throws Exception {
    try (SegmentedDiskBuffer buffer = open(small(dir()))) {
      long last = 0;
      for (int i = 0; i < 3000; i++) {
        last = buffer.append(payload(i, 500));
      }
      int before = segmentFiles(dir()).size();
      assertThat(before).isGreaterThan(10);

      buffer.reader().acknowledge(last - 10);

      assertThat(segmentFiles(dir())).hasSizeLessThanOrEqualTo(2);
      assertThat(ids(readAll(buffer))).isEqualTo(range(2990, 3000));
    }
  }

  @Test
  void aMissingMiddleSegmentCostsOnlyItsRecordsAndIsReported() throws Exception {
    // catches: one lost file setting every later segment aside (all of them lost without need)
    try (SegmentedDiskBuffer buffer = open(small(dir()))) {
      for (int i = 0; i < 2000; i++) {
        buffer.append(payload(i, 300));
      }
    }
    List<Path> segments = segmentFiles(dir());
    assertThat(segments.size()).isGreaterThan(4);
    Files.delete(segments.get(2));
    long missingFrom = Segment.parseBase(segments.get(2)).orElseThrow();
    long missingTo = Segment.parseBase(segments.get(3)).orElseThrow() - 1;

    try (SegmentedDiskBuffer buffer = open(small(dir()))) {
      RecoveryReport report = buffer.recoveryReport();
      assertThat(report.reason()).contains(RecoveryReport.Reason.CHAIN_GAP);
      assertThat(report.recordsLost()).isEqualTo(missingTo - missingFrom + 1);
      List<Long> expected = new java.util.ArrayList<>(range(0, missingFrom - 1));
      expected.addAll(range(missingTo, 2000));
      assertThat(ids(readAll(buffer))).isEqualTo(expected);
      assertThat(buffer.append(payload(9999, 10))).isGreaterThan(2000);
    }
    try (SegmentedDiskBuffer buffer = open(small(dir()))) {
      assertThat(buffer.recoveryReport().findings()).as("reported once, not at every open")
          .isEmpty();
    }
  }

  @Test
  void aSegmentWithAnUnreadableHeaderIsSetAside() throws Exception {
    try (SegmentedDiskBuffer buffer = open(small(dir()))) {
      for (int i = 0; i < 100; i++) {
        buffer.append(payload(i, 100));
      }
    }
    Path only = segmentFiles(dir()).get(0);
    try (FileChannel channel = FileChannel.open(only, StandardOpenOption.WRITE)) {
      channel.write(ByteBuffer.wrap(new byte[] {'X'}), 0);
    }

    try (SegmentedDiskBuffer buffer = open(small(dir()))) {
      assertThat(buffer.recoveryReport().reason())
          .contains(RecoveryReport.Reason.CORRUPT_HEADER);
      assertThat(readAll(buffer)).isEmpty();
      assertThat(buffer.append(payload(1, 10))).isGreaterThan(100);
    }
    assertThat(dir().resolve(CorruptFolder.NAME)).isNotEmptyDirectory();
  }

  @Test
  void aRecordDamagedAfterACleanCloseIsSkippedOnReadAndCounted() throws Exception {
    try (SegmentedDiskBuffer buffer = open(small(dir()))) {
      for (int i = 0; i < 600; i++) {
        buffer.append(payload(i, 300));
      }
    }
    Path first = segmentFiles(dir()).get(0);
    int damaged = 10;
    int offset = SegmentHeader.BYTES + damaged * RecordFormat.frameBytes(300) + 100;
    try (FileChannel channel = FileChannel.open(first, StandardOpenOption.READ,
        StandardOpenOption.WRITE)) {
      ByteBuffer b = ByteBuffer.allocate(1);
      channel.read(b, offset);
      channel.write(ByteBuffer.wrap(new byte[] {(byte) (b.get(0) ^ 0x10)}), offset);
    }

    List<BufferDamage> reported = new java.util.ArrayList<>();
    WatermarkListener listener = new WatermarkListener() {
      @Override
      public void onHighWater(BufferStats stats) {}

      @Override
      public void onLowWater(BufferStats stats) {}

      @Override
      public void onDamage(BufferDamage damage) {
        reported.add(damage);
      }
    };
    try (SegmentedDiskBuffer buffer = SegmentedDiskBuffer.open(small(dir()), listener)) {
      List<Long> ids = ids(readAll(buffer));
      List<Long> expected = new java.util.ArrayList<>(range(0, 600));
      expected.remove(Long.valueOf(damaged));
      assertThat(ids).as("only the damaged record is lost").isEqualTo(expected);
      assertThat(buffer.stats().discardedRecords()).isEqualTo(1);
      assertThat(reported).singleElement().satisfies(d -> {
        assertThat(d.recordsLost()).isEqualTo(1);
        assertThat(d.firstLost()).isEqualTo(damaged + 1);
        assertThat(d.setAside()).isPresent();
      });
      buffer.reader().acknowledge(buffer.stats().tailSequence());
      assertThat(buffer.stats().records()).isZero();
    }
    assertThat(dir().resolve(CorruptFolder.NAME)).isNotEmptyDirectory();
  }

  @Test
  void alwaysModeSharesOneFsyncAmongConcurrentAppenders() throws Exception {
    int threads = 4;
    int perThread = 150;
    try (SegmentedDiskBuffer buffer = open(small(dir()).withDurability(Durability.ALWAYS))) {
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      try {
        List<Future<?>> futures = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
          int id = t;
          futures.add(pool.submit(() -> {
            for (int i = 0; i < perThread; i++) {
              buffer.append(payload(id * 1000L + i, 100));
            }
            return null;
          }));
        }
        for (Future<?> f : futures) {
          f.get(60, TimeUnit.SECONDS);
        }
      } finally {
        pool.shutdownNow();
      }
      BufferStats stats = buffer.stats();
      assertThat(stats.records()).isEqualTo(threads * perThread);
      assertThat(stats.syncs()).isPositive().isLessThan(threads * perThread);
    }
  }

  @Test
  void pipelinedAsyncAppendsInAlwaysModeShareFsyncsAndAllBecomeDurable() throws Exception {
    try (SegmentedDiskBuffer buffer = open(small(dir()).withDurability(Durability.ALWAYS))) {
      List<java.util.concurrent.CompletableFuture<Long>> futures = new ArrayList<>();
      for (int i = 0; i < 500; i++) {
        futures.add(buffer.appendAsync(payload(i, 100)));
      }
      long previous = 0;
      for (java.util.concurrent.CompletableFuture<Long> f : futures) {
        long sequence = f.get(60, TimeUnit.SECONDS);
        assertThat(sequence).isGreaterThan(previous);
        previous = sequence;
      }
      assertThat(buffer.stats().syncs()).isPositive().isLessThan(500);
    }
    try (SegmentedDiskBuffer reopened = open(small(dir()))) {
      assertThat(ids(readAll(reopened))).isEqualTo(range(0, 500));
    }
  }

  @Test
  void periodicModeFsyncsInTheBackground() throws Exception {
    try (SegmentedDiskBuffer buffer = open(small(dir()).withDurability(Durability.PERIODIC)
        .withPeriodicFsyncIntervalMs(20))) {
      buffer.append(payload(1, 100));
      await().atMost(Duration.ofSeconds(10)).until(() -> buffer.stats().syncs() > 0);
      assertThat(buffer.stats().syncFailures()).isZero();
    }
  }

  @Test
  void aDropOldestHeadSurvivesACleanReopen() throws Exception {
    BufferOptions options = small(dir()).withMaxBytes(256 * 1024)
        .withOverflowPolicy(OverflowPolicy.DROP_OLDEST);
    List<Long> expected;
    try (SegmentedDiskBuffer buffer = open(options)) {
      for (int i = 0; i < 5000; i++) {
        buffer.append(payload(i, 100));
      }
      expected = ids(readAll(buffer));
      assertThat(buffer.stats().droppedRecords()).isEqualTo(5000 - expected.size());
    }
    try (SegmentedDiskBuffer buffer = open(options)) {
      assertThat(ids(readAll(buffer))).isEqualTo(expected);
      assertThat(segmentFiles(dir()).size()).isLessThanOrEqualTo(
          (int) (options.maxBytes() / options.segmentBytes()) + 2);
    }
  }

  @Test
  void openLeavesNoPreparedFilesBehindAfterClose() throws Exception {
    try (SegmentedDiskBuffer buffer = open(small(dir()))) {
      buffer.append(payload(1, 10));
    }
    try (Stream<Path> files = Files.list(dir())) {
      assertThat(files.map(p -> p.getFileName().toString()))
          .noneMatch(n -> n.endsWith(".tmp"));
    }
  }

  static void flipBit(Path file, long offset, int bit) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ,
        StandardOpenOption.WRITE)) {
      ByteBuffer b = ByteBuffer.allocate(1);
      channel.read(b, offset);
      channel.write(ByteBuffer.wrap(new byte[] {(byte) (b.get(0) ^ (1 << bit))}), offset);
    }
  }
}
