package io.qubiq.benchmarks;

import io.qubiq.buffer.BufferOptions;
import io.qubiq.buffer.BufferReader;
import io.qubiq.buffer.BufferedRecord;
import io.qubiq.buffer.Durability;
import io.qubiq.buffer.SegmentedDiskBuffer;
import io.qubiq.buffer.WatermarkListener;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The forwarder's loop without a destination: peek a batch, acknowledge it (or, in {@link
 * #drainReadingAhead}, peek the next batch first, as the read-ahead does), until a backlog of
 * {@link #RECORDS} 100-byte records is drained. Each invocation drains a freshly written backlog
 * (written in setup, not measured). Score: nanoseconds per record; records/s = 1e9 / score.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2)
@Measurement(iterations = 5)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class BufferReadAckBenchmark {
  static final int RECORDS = 2_000_000;

  @Param({"1000"})
  public int batchRecords;

  private SegmentedDiskBuffer buffer;
  private Path dir;

  @Setup(Level.Invocation)
  public void fill() throws Exception {
    dir = BenchFiles.newDirectory("qubiq-buffer-read");
    buffer = SegmentedDiskBuffer.open(BufferOptions.defaults(dir).withMaxBytes(1L << 40)
        .withDurability(Durability.NONE), WatermarkListener.none());
    byte[] payload = new byte[100];
    for (int i = 0; i < RECORDS; i++) {
      buffer.append(payload);
    }
  }

  @TearDown(Level.Invocation)
  public void close() throws Exception {
    buffer.close();
    BenchFiles.delete(dir);
  }

  @Benchmark
  @OperationsPerInvocation(RECORDS)
  public long drain() throws Exception {
    long read = 0;
    while (true) {
      List<BufferedRecord> batch = buffer.reader().peek(batchRecords, 1 << 20);
      if (batch.isEmpty()) {
        return read;
      }
      read += batch.size();
      buffer.reader().acknowledge(batch.get(batch.size() - 1).sequence());
    }
  }

  /**
   * The forwarder's order with its read-ahead: the next batch is peeked after the batch in hand
   * before that one is acknowledged, so each peek starts behind an unacknowledged batch.
   */
  @Benchmark
  @OperationsPerInvocation(RECORDS)
  public long drainReadingAhead() throws Exception {
    BufferReader reader = buffer.reader();
    List<BufferedRecord> batch = reader.peek(batchRecords, 1 << 20);
    long read = 0;
    while (!batch.isEmpty()) {
      read += batch.size();
      long last = batch.get(batch.size() - 1).sequence();
      List<BufferedRecord> next = reader.peekAfter(last, batchRecords, 1 << 20);
      reader.acknowledge(last);
      batch = next;
    }
    return read;
  }
}
