package io.qubiq.buffer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The behaviour every {@link DurableBuffer} shares; one subclass per implementation. */
abstract class DurableBufferContract {
  @TempDir Path temp;
  private final List<DurableBuffer> opened = new ArrayList<>();

  /** Opens a fresh buffer of the implementation under test. */
  protected abstract DurableBuffer create(BufferOptions options, WatermarkListener listener)
      throws BufferException;

  protected BufferOptions options() {
    return BufferOptions.defaults(temp.resolve("buffer"))
        .withSegmentBytes(64 * 1024)
        .withMaxBytes(1 << 20)
        .withDurability(Durability.NONE);
  }

  private DurableBuffer open(BufferOptions options) throws BufferException {
    return open(options, WatermarkListener.none());
  }

  private DurableBuffer open(BufferOptions options, WatermarkListener listener)
      throws BufferException {
    DurableBuffer buffer = create(options, listener);
    opened.add(buffer);
    return buffer;
  }

  @AfterEach
  void closeBuffers() throws BufferException {
    for (DurableBuffer buffer : opened) {
      buffer.close();
    }
  }

  static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  static String text(BufferedRecord record) {
    return new String(record.payload(), StandardCharsets.UTF_8);
  }

  static List<String> texts(List<BufferedRecord> records) {
    return records.stream().map(DurableBufferContract::text).toList();
  }

  @Test
  void appendedRecordsAreReadBackInOrderWithIncreasingSequences() throws Exception {
    DurableBuffer buffer = open(options());
    long first = buffer.append(bytes("a"));
    long second = buffer.append(bytes("bb"));
    long third = buffer.append(bytes("ccc"));

    assertThat(second).isGreaterThan(first);
    assertThat(third).isGreaterThan(second);
    List<BufferedRecord> batch = buffer.reader().peek(10, 1 << 20);
    assertThat(texts(batch)).containsExactly("a", "bb", "ccc");
    assertThat(batch).extracting(BufferedRecord::sequence).containsExactly(first, second, third);
  }

  @Test
  void appendAsyncCompletesWithTheSequenceOfARecordThatIsAlreadyReadable() throws Exception {
    DurableBuffer buffer = open(options());
    long first = buffer.append(bytes("a"));
    java.util.concurrent.CompletableFuture<Long> second = buffer.appendAsync(bytes("b"));

    assertThat(texts(buffer.reader().peek(10, 1 << 20))).containsExactly("a", "b");
    assertThat(second.get(10, TimeUnit.SECONDS)).isGreaterThan(first);
  }

  @Test
  void batchAppendGetsOneContiguousRange() throws Exception {
    DurableBuffer buffer = open(options());
    buffer.append(bytes("before"));
    SequenceRange range = buffer.appendBatch(List.of(bytes("x"), bytes("y"), bytes("z")));

    assertThat(range.count()).isEqualTo(3);
    assertThat(buffer.reader().peek(10, 1 << 20)).extracting(BufferedRecord::sequence)
        .endsWith(range.first(), range.first() + 1, range.last());
  }

  @Test
  void peekDoesNotRemoveRecordsUntilTheyAreAcknowledged() throws Exception {
    DurableBuffer buffer = open(options());
    buffer.append(bytes("one"));
    buffer.append(bytes("two"));

    assertThat(texts(buffer.reader().peek(1, 100))).containsExactly("one");
    assertThat(texts(buffer.reader().peek(1, 100))).containsExactly("one");
    assertThat(buffer.stats().records()).isEqualTo(2);
  }

  @Test
  void peekStopsAtMaxRecordsOrMaxBytesButAlwaysReturnsOneRecord() throws Exception {
    DurableBuffer buffer = open(options());
    for (int i = 0; i < 10; i++) {
      buffer.append(new byte[100]);
    }

    assertThat(buffer.reader().peek(3, 1 << 20)).hasSize(3);
    assertThat(buffer.reader().peek(10, 250)).hasSize(2);
    assertThat(buffer.reader().peek(10, 1)).hasSize(1);
  }

  @Test
  void peekAfterReadsAheadOfTheUnacknowledgedHead() throws Exception {
    DurableBuffer buffer = open(options());
    long a = buffer.append(bytes("a"));
    long b = buffer.append(bytes("b"));
    long c = buffer.append(bytes("c"));
    buffer.append(bytes("d"));

    assertThat(texts(buffer.reader().peekAfter(b, 10, 1 << 20))).containsExactly("c", "d");
    assertThat(texts(buffer.reader().peekAfter(a, 2, 1 << 20))).containsExactly("b", "c");
    assertThat(texts(buffer.reader().peekAfter(a - 1, 10, 1 << 20))).containsExactly("a", "b", "c", "d");
    assertThat(buffer.reader().peekAfter(c + 1, 10, 1 << 20)).isEmpty();
    assertThat(buffer.stats().records()).isEqualTo(4);
  }

  @Test
  void peekAfterASequenceBelowTheHeadPeeksFromTheHead() throws Exception {
    DurableBuffer buffer = open(options());
    long a = buffer.append(bytes("a"));
    long b = buffer.append(bytes("b"));
    buffer.append(bytes("c"));

    buffer.reader().acknowledge(b);
    assertThat(texts(buffer.reader().peekAfter(a, 10, 1 << 20))).containsExactly("c");
    assertThat(texts(buffer.reader().peekAfter(Long.MIN_VALUE, 10, 1 << 20))).containsExactly("c");
  }

  @Test
  void peekAfterStepsAcrossSegmentsAndStopsAtMaxRecordsOrMaxBytes() throws Exception {
    DurableBuffer buffer = open(options());
    List<Long> sequences = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      sequences.add(buffer.append(bytes(String.format("%01000d", i))));
    }

    List<BufferedRecord> ahead = buffer.reader().peekAfter(sequences.get(199), 50, 1 << 20);
    assertThat(ahead).extracting(BufferedRecord::sequence).containsExactlyElementsOf(sequences.subList(200, 250));
    assertThat(text(ahead.get(0))).isEqualTo(String.format("%01000d", 200));
    assertThat(buffer.reader().peekAfter(sequences.get(10), 50, 2_500)).hasSize(2);
    assertThat(buffer.reader().peekAfter(sequences.get(10), 50, 1)).hasSize(1);
  }

  @Test
  void peekAfterTheLastRecordReadGivesWhatAPeekFromTheHeadWouldAfterAcksAppendsAndSegmentRolls() throws Exception {
    DurableBuffer buffer = open(options().withMaxBytes(8L << 20));
    for (int i = 0; i < 400; i++) {
      buffer.append(bytes(String.format("%0500d", i)));
    }
    BufferReader reader = buffer.reader();
    List<BufferedRecord> first = reader.peek(150, 1 << 20);
    long after = first.get(first.size() - 1).sequence();
    // the segment the last read stopped in is still there; later appends roll more segments
    for (int i = 400; i < 600; i++) {
      buffer.append(bytes(String.format("%0500d", i)));
    }
    reader.acknowledge(first.get(99).sequence());

    List<BufferedRecord> next = reader.peekAfter(after, 300, 1 << 20);

    assertThat(texts(next)).containsExactlyElementsOf(texts(reader.peek(600, 1 << 20)).subList(50, 350));
  }

  @Test
  void peekAfterTheLastRecordReadStartsFromTheHeadOnceDropsPassedIt() throws Exception {
    BufferOptions options = options().withOverflowPolicy(OverflowPolicy.DROP_OLDEST);
    DurableBuffer buffer = open(options);
    int fit = (int) (options.maxBytes() / RecordFormat.frameBytes(1000));
    for (int i = 0; i < fit; i++) {
      buffer.append(bytes(String.format("%01000d", i)));
    }
    List<BufferedRecord> read = buffer.reader().peek(10, 1 << 20);
    long after = read.get(read.size() - 1).sequence();
    // past the last read, not past its segment: the segment stays, the head moves beyond the read
    for (int i = fit; i < fit + 20; i++) {
      buffer.append(bytes(String.format("%01000d", i)));
    }

    List<BufferedRecord> next = buffer.reader().peekAfter(after, 5, 1 << 20);

    assertThat(buffer.stats().droppedRecords()).isGreaterThan(10);
    assertThat(texts(next)).containsExactlyElementsOf(texts(buffer.reader().peek(5, 1 << 20)));
    assertThat(next.get(0).sequence()).isEqualTo(buffer.stats().headSequence());
  }

  @Test
  void readAheadOnOneThreadWhileAnotherAcknowledgesSeesEveryRecordOnceInOrder() throws Exception {
    DurableBuffer buffer = open(options().withMaxBytes(64L << 20));
    int total = 5_000;
    for (int i = 0; i < total; i++) {
      buffer.append(bytes(Integer.toString(i)));
    }
    ExecutorService acker = Executors.newSingleThreadExecutor();
    try {
      List<String> seen = new ArrayList<>();
      long after = Long.MIN_VALUE;
      Future<?> pending = null;
      while (seen.size() < total) {
        List<BufferedRecord> batch = buffer.reader().peekAfter(after, 97, 1 << 20);
        assertThat(batch).isNotEmpty();
        seen.addAll(texts(batch));
        after = batch.get(batch.size() - 1).sequence();
        if (pending != null) {
          pending.get(10, TimeUnit.SECONDS);
        }
        long through = after;
        pending = acker.submit(() -> {
          buffer.reader().acknowledge(through);
          return null;
        });
      }
      pending.get(10, TimeUnit.SECONDS);
      assertThat(seen).hasSize(total);
      for (int i = 0; i < total; i++) {
        assertThat(seen.get(i)).isEqualTo(Integer.toString(i));
      }
      assertThat(buffer.stats().records()).isZero();
    } finally {
      acker.shutdownNow();
    }
  }

  @Test
  void acknowledgeConsumesEveryRecordUpToTheSequence() throws Exception {
    DurableBuffer buffer = open(options());
    long a = buffer.append(bytes("a"));
    long b = buffer.append(bytes("b"));
    buffer.append(bytes("c"));

    buffer.reader().acknowledge(b);
    assertThat(texts(buffer.reader().peek(10, 1 << 20))).containsExactly("c");
    buffer.reader().acknowledge(a);
    assertThat(texts(buffer.reader().peek(10, 1 << 20))).containsExactly("c");
    assertThat(buffer.stats().records()).isEqualTo(1);
  }

  @Test
  void acknowledgingASequenceNeverAssignedIsRejected() throws Exception {
    DurableBuffer buffer = open(options());
    long last = buffer.append(bytes("a"));

    assertThatThrownBy(() -> buffer.reader().acknowledge(last + 1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(buffer.stats().records()).isEqualTo(1);
  }

  @Test
  void statsReportBytesRecordsOldestAppendTimeAndHeadAndTail() throws Exception {
    DurableBuffer buffer = open(options());
    BufferStats empty = buffer.stats();
    assertThat(empty.records()).isZero();
    assertThat(empty.usedBytes()).isZero();
    assertThat(empty.oldestAppendTime()).isEmpty();
    assertThat(empty.headSequence()).isEqualTo(empty.tailSequence() + 1);

    long before = System.currentTimeMillis();
    long first = buffer.append(new byte[10]);
    long last = buffer.append(new byte[100]);
    BufferStats stats = buffer.stats();

    assertThat(stats.records()).isEqualTo(2);
    assertThat(stats.usedBytes())
        .isEqualTo(RecordFormat.frameBytes(10) + RecordFormat.frameBytes(100));
    assertThat(stats.headSequence()).isEqualTo(first);
    assertThat(stats.tailSequence()).isEqualTo(last);
    // Append times come from a clock refreshed every millisecond: allow for a late tick.
    assertThat(stats.oldestAppendTime()).hasValueSatisfying(
        t -> assertThat(t.toEpochMilli()).isBetween(before - 1000, System.currentTimeMillis()));
    assertThat(stats.maxBytes()).isEqualTo(options().maxBytes());
  }

  @Test
  void refusePolicyThrowsWithUsedAndLimitBytesAndKeepsTheBacklog() throws Exception {
    BufferOptions options = options().withOverflowPolicy(OverflowPolicy.REFUSE);
    DurableBuffer buffer = open(options);
    byte[] record = new byte[1000];
    int fit = (int) (options.maxBytes() / RecordFormat.frameBytes(record.length));
    for (int i = 0; i < fit; i++) {
      buffer.append(record);
    }

    assertThatThrownBy(() -> buffer.append(record))
        .isInstanceOfSatisfying(BufferFullException.class, e -> {
          assertThat(e.usedBytes()).isEqualTo((long) fit * RecordFormat.frameBytes(1000));
          assertThat(e.limitBytes()).isEqualTo(options.maxBytes());
        });
    assertThat(buffer.stats().records()).isEqualTo(fit);
    assertThat(buffer.stats().droppedRecords()).isZero();
  }

  @Test
  void dropOldestAdvancesTheHeadAndCountsEveryDroppedRecord() throws Exception {
    BufferOptions options = options().withOverflowPolicy(OverflowPolicy.DROP_OLDEST);
    DurableBuffer buffer = open(options);
    int frame = RecordFormat.frameBytes(1000);
    int fit = (int) (options.maxBytes() / frame);
    List<Long> sequences = new ArrayList<>();
    for (int i = 0; i < fit + 25; i++) {
      sequences.add(buffer.append(bytes(String.format("%01000d", i))));
    }

    BufferStats stats = buffer.stats();
    assertThat(stats.droppedRecords()).isEqualTo(25);
    assertThat(stats.records()).isEqualTo(fit);
    assertThat(stats.usedBytes()).isLessThanOrEqualTo(options.maxBytes());
    assertThat(stats.headSequence()).isEqualTo(sequences.get(25));
    assertThat(text(buffer.reader().peek(1, 1).get(0))).isEqualTo(String.format("%01000d", 25));
  }

  @Test
  void sequencesKeepIncreasingAfterRecordsAreDropped() throws Exception {
    DurableBuffer buffer = open(options().withOverflowPolicy(OverflowPolicy.DROP_OLDEST));
    long previous = 0;
    for (int i = 0; i < 3000; i++) {
      long sequence = buffer.append(new byte[1000]);
      assertThat(sequence).isGreaterThan(previous);
      previous = sequence;
    }
    assertThat(buffer.stats().droppedRecords()).isPositive();
  }

  @Test
  void highWaterIsReportedOnceAndLowWaterOnceAfterDraining() throws Exception {
    List<String> events = new CopyOnWriteArrayList<>();
    WatermarkListener listener = new WatermarkListener() {
      @Override
      public void onHighWater(BufferStats stats) {
        events.add("high " + stats.usedBytes());
      }

      @Override
      public void onLowWater(BufferStats stats) {
        events.add("low " + stats.usedBytes());
      }
    };
    BufferOptions options = options().withWaterMarks(0.5, 0.25);
    DurableBuffer buffer = open(options, listener);
    int frame = RecordFormat.frameBytes(1000);
    long last = 0;
    for (long used = 0; used + frame <= options.maxBytes() * 0.75; used += frame) {
      last = buffer.append(new byte[1000]);
    }
    assertThat(events).hasSize(1);
    assertThat(events.get(0)).startsWith("high ");
    assertThat(Long.parseLong(events.get(0).substring(5)))
        .isGreaterThanOrEqualTo((long) (options.maxBytes() * 0.5));

    long head = buffer.stats().headSequence();
    buffer.reader().acknowledge(head + (last - head) / 2);
    assertThat(events).hasSize(1);
    buffer.reader().acknowledge(last);
    assertThat(events).hasSize(2);
    assertThat(events.get(1)).startsWith("low ");
    assertThat(Long.parseLong(events.get(1).substring(4)))
        .isLessThanOrEqualTo((long) (options.maxBytes() * 0.25));
  }

  @Test
  void concurrentAppendersLoseNothingAndTheReaderSeesEachRecordOnce() throws Exception {
    DurableBuffer buffer = open(options().withMaxBytes(64L << 20));
    int threads = 4;
    int perThread = 3000;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    List<String> seen = new ArrayList<>();
    AtomicBoolean done = new AtomicBoolean();
    try {
      List<Future<?>> producers = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int id = t;
        producers.add(pool.submit(() -> {
          for (int i = 0; i < perThread; i++) {
            buffer.append(bytes(id + ":" + i));
          }
          return null;
        }));
      }
      Future<?> consumer = Executors.newSingleThreadExecutor().submit(() -> {
        long lastSequence = 0;
        while (seen.size() < threads * perThread) {
          List<BufferedRecord> batch = buffer.reader().peek(500, 1 << 20);
          for (BufferedRecord r : batch) {
            assertThat(r.sequence()).isGreaterThan(lastSequence);
            lastSequence = r.sequence();
            seen.add(text(r));
          }
          if (!batch.isEmpty()) {
            buffer.reader().acknowledge(lastSequence);
          }
        }
        done.set(true);
        return null;
      });
      for (Future<?> producer : producers) {
        producer.get(60, TimeUnit.SECONDS);
      }
      await().atMost(Duration.ofSeconds(60)).untilTrue(done);
      consumer.get();
    } finally {
      pool.shutdownNow();
    }
    assertThat(seen).doesNotHaveDuplicates().hasSize(threads * perThread);
    for (int t = 0; t < threads; t++) {
      String prefix = t + ":";
      assertThat(seen.stream().filter(s -> s.startsWith(prefix)).toList())
          .isEqualTo(java.util.stream.IntStream.range(0, perThread)
              .mapToObj(i -> prefix + i).toList());
    }
    assertThat(buffer.stats().records()).isZero();
    assertThat(buffer.stats().usedBytes()).isZero();
  }

  @Test
  void emptyAndOversizedPayloadsAreRejected() throws Exception {
    DurableBuffer buffer = open(options());
    assertThatThrownBy(() -> buffer.append(new byte[0]))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> buffer.append(new byte[options().segmentBytes()]))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(buffer.stats().records()).isZero();
  }

  @Test
  void aClosedBufferRejectsAppends() throws Exception {
    DurableBuffer buffer = open(options());
    buffer.close();
    assertThatThrownBy(() -> buffer.append(bytes("late")))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void recordsSpanningManySegmentsAreReadBackInOrder() throws Exception {
    DurableBuffer buffer = open(options());
    List<String> written = new ArrayList<>();
    for (int i = 0; i < 500; i++) {
      String value = i + "-" + "x".repeat(i % 700);
      written.add(value);
      buffer.append(bytes(value));
    }
    List<String> read = new ArrayList<>();
    while (read.size() < written.size()) {
      List<BufferedRecord> batch = buffer.reader().peek(37, 1 << 20);
      read.addAll(texts(batch));
      buffer.reader().acknowledge(batch.get(batch.size() - 1).sequence());
    }
    assertThat(read).isEqualTo(written);
  }
}
