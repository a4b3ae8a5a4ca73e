package io.qubiq.buffer;

import static io.qubiq.buffer.TestBuffers.idOf;
import static io.qubiq.buffer.TestBuffers.payload;
import static io.qubiq.buffer.TestBuffers.readAll;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Random append / batch / peek / acknowledge / reopen / crash sequences, checked after every step
 * against a list in memory. The seed is printed on failure; rerun one with
 * {@code -Dbuffer.model.seed=N}.
 */
class BufferModelTest {
  private static final int OPERATIONS = 2500;
  @TempDir Path temp;

  /** One record as the model knows it. */
  private record Entry(long sequence, long id, int size) {
    int frame() {
      return RecordFormat.frameBytes(size);
    }
  }

  @Test
  void randomOperationsAgreeWithASimpleModelForBothOverflowPolicies() throws Exception {
    long seed = Long.getLong("buffer.model.seed", System.nanoTime());
    for (OverflowPolicy policy : OverflowPolicy.values()) {
      try {
        run(seed, policy, temp.resolve(policy.name()));
      } catch (Throwable t) {
        throw new AssertionError("model test failed for " + policy + " with seed " + seed
            + " (rerun with -Dbuffer.model.seed=" + seed + ")", t);
      }
    }
  }

  private void run(long seed, OverflowPolicy policy, Path dir) throws Exception {
    Random random = new Random(seed);
    BufferOptions options = TestBuffers.small(dir).withMaxBytes(512 * 1024)
        .withOverflowPolicy(policy);
    List<Entry> model = new ArrayList<>();
    List<Entry> dropped = new ArrayList<>();
    long modelBytes = 0;
    long lastSequence = 0;
    long droppedThisOpen = 0;
    long nextId = 0;
    SegmentedDiskBuffer buffer = SegmentedDiskBuffer.open(options, WatermarkListener.none());
    try {
      for (int op = 0; op < OPERATIONS; op++) {
        int dice = random.nextInt(100);
        if (dice < 55) {
          int count = dice < 45 ? 1 : 1 + random.nextInt(5);
          List<Entry> batch = new ArrayList<>();
          List<byte[]> payloads = new ArrayList<>();
          long total = 0;
          for (int i = 0; i < count; i++) {
            int size = 8 + random.nextInt(random.nextInt(10) == 0 ? 6000 : 300);
            Entry e = new Entry(0, nextId++, size);
            batch.add(e);
            payloads.add(payload(e.id(), e.size()));
            total += e.frame();
          }
          if (modelBytes + total > options.maxBytes() && policy == OverflowPolicy.REFUSE) {
            SegmentedDiskBuffer target = buffer;
            assertThatThrownBy(() -> target.appendBatch(payloads))
                .isInstanceOf(BufferFullException.class);
            continue;
          }
          while (modelBytes + total > options.maxBytes()) {
            Entry oldest = model.remove(0);
            modelBytes -= oldest.frame();
            dropped.add(oldest);
            droppedThisOpen++;
          }
          long first = count == 1 ? buffer.append(payloads.get(0))
              : buffer.appendBatch(payloads).first();
          assertThat(first).isGreaterThan(lastSequence);
          for (int i = 0; i < count; i++) {
            Entry e = batch.get(i);
            model.add(new Entry(first + i, e.id(), e.size()));
            modelBytes += e.frame();
          }
          lastSequence = first + count - 1;
        } else if (dice < 70) {
          int maxRecords = 1 + random.nextInt(50);
          long maxBytes = 1 + random.nextInt(20_000);
          List<Long> expected = new ArrayList<>();
          long bytes = 0;
          for (Entry e : model) {
            if (expected.size() == maxRecords
                || (!expected.isEmpty() && bytes + Math.max(8, e.size()) > maxBytes)) {
              break;
            }
            expected.add(e.sequence());
            bytes += Math.max(8, e.size());
          }
          List<BufferedRecord> peeked = buffer.reader().peek(maxRecords, maxBytes);
          assertThat(peeked).extracting(BufferedRecord::sequence).isEqualTo(expected);
          for (int i = 0; i < peeked.size(); i++) {
            assertThat(idOf(peeked.get(i).payload())).isEqualTo(model.get(i).id());
          }
        } else if (dice < 85) {
          if (model.isEmpty()) {
            continue;
          }
          int upTo = random.nextInt(model.size());
          buffer.reader().acknowledge(model.get(upTo).sequence());
          for (int i = 0; i <= upTo; i++) {
            modelBytes -= model.remove(0).frame();
          }
          dropped.clear();
        } else if (dice < 91) {
          buffer.close();
          buffer = SegmentedDiskBuffer.open(options, WatermarkListener.none());
          assertThat(buffer.recoveryReport().cleanShutdown()).isTrue();
          droppedThisOpen = 0;
          dropped.clear();
          assertSameRecords(buffer, model);
        } else if (dice < 96) {
          buffer.simulateCrash();
          buffer = SegmentedDiskBuffer.open(options, WatermarkListener.none());
          assertThat(buffer.recoveryReport().intact()).isTrue();
          droppedThisOpen = 0;
          List<BufferedRecord> actual = readAll(buffer);
          int resurrected = actual.size() - model.size();
          assertThat(resurrected).as("only dropped records may come back").isBetween(0,
              dropped.size());
          List<Entry> back = dropped.subList(dropped.size() - resurrected, dropped.size());
          List<Entry> merged = new ArrayList<>(back);
          merged.addAll(model);
          model = merged;
          modelBytes = model.stream().mapToLong(Entry::frame).sum();
          dropped.clear();
          assertSameRecords(buffer, model);
        }
        BufferStats stats = buffer.stats();
        assertThat(stats.records()).as("records after op %d", op).isEqualTo(model.size());
        assertThat(stats.usedBytes()).as("bytes after op %d", op).isEqualTo(modelBytes);
        assertThat(stats.tailSequence()).isEqualTo(lastSequence);
        assertThat(stats.headSequence())
            .isEqualTo(model.isEmpty() ? lastSequence + 1 : model.get(0).sequence());
        assertThat(stats.droppedRecords()).isEqualTo(droppedThisOpen);
      }
    } finally {
      buffer.close();
    }
  }

  private static void assertSameRecords(DurableBuffer buffer, List<Entry> model)
      throws BufferException {
    List<BufferedRecord> actual = readAll(buffer);
    assertThat(actual).extracting(BufferedRecord::sequence)
        .isEqualTo(model.stream().map(Entry::sequence).toList());
    for (int i = 0; i < actual.size(); i++) {
      assertThat(idOf(actual.get(i).payload())).isEqualTo(model.get(i).id());
    }
  }
}
