package io.qubiq.benchmarks;

import io.qubiq.buffer.BufferOptions;
import io.qubiq.buffer.Durability;
import io.qubiq.buffer.OverflowPolicy;
import io.qubiq.buffer.SegmentedDiskBuffer;
import io.qubiq.buffer.WatermarkListener;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import net.openhft.chronicle.bytes.BytesStore;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Appends per second of {@code recordBytes}-byte records by 1 and 4 producer threads, into the
 * Qubiq disk buffer in each durability mode ({@code store} = NONE, PERIODIC, ALWAYS; every record
 * CRC32C-checksummed) and, as the baseline, into Chronicle Queue with its default settings
 * ({@code store} = chronicle: one daily cycle file grown in 64 MiB steps, no fsync, no checksum).
 * The store is a parameter so each baseline runs right beside the buffer runs it is compared to.
 * A fresh store per iteration; its files are deleted afterwards. Each store takes one record of
 * the same size before the iteration's clock starts, as a running gateway's buffer has long
 * before: the iteration measures appends, not opening (for the Qubiq buffer that first record
 * waits until its background preparer has sized, mapped and touched the first segment; Chronicle
 * creates its cycle file).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g",
    "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
    "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED",
    "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED",
    "-Dchronicle.analytics.disable=true"})
public class AppendBenchmark {
  @Param({"100", "4096"})
  public int recordBytes;

  @Param({"chronicle", "NONE", "PERIODIC", "ALWAYS"})
  public String store;

  @Param({"67108864"})
  public int segmentBytes;

  SegmentedDiskBuffer buffer;
  ChronicleQueue queue;
  private Path dir;

  @Setup(Level.Iteration)
  public void open() throws Exception {
    dir = BenchFiles.newDirectory("append-" + store);
    if (store.equals("chronicle")) {
      queue = ChronicleQueue.singleBuilder(dir).build();
    } else {
      buffer = SegmentedDiskBuffer.open(BufferOptions.defaults(dir)
          .withSegmentBytes(segmentBytes)
          .withMaxBytes(1L << 40)
          .withOverflowPolicy(OverflowPolicy.REFUSE)
          .withDurability(Durability.valueOf(store))
          .withPeriodicFsyncIntervalMs(1000), WatermarkListener.none());
    }
    byte[] first = new byte[recordBytes];
    if (queue != null) {
      try (ExcerptAppender appender = queue.createAppender()) {
        appender.writeBytes(BytesStore.wrap(first));
      }
    } else {
      buffer.append(first);
    }
  }

  @TearDown(Level.Iteration)
  public void close() throws Exception {
    if (buffer != null) {
      buffer.close();
      buffer = null;
    }
    if (queue != null) {
      queue.close();
      queue = null;
    }
    BenchFiles.delete(dir);
  }

  /** One producer thread: its record, and its Chronicle appender (those are per thread). */
  @State(Scope.Thread)
  public static class Producer {
    byte[] payload;
    BytesStore<?, byte[]> wrapped;
    ExcerptAppender appender;

    @Setup(Level.Iteration)
    public void create(AppendBenchmark benchmark) {
      payload = new byte[benchmark.recordBytes];
      ThreadLocalRandom.current().nextBytes(payload);
      wrapped = BytesStore.wrap(payload);
      appender = benchmark.queue == null ? null : benchmark.queue.createAppender();
    }

    @TearDown(Level.Iteration)
    public void close() {
      if (appender != null) {
        appender.close();
        appender = null;
      }
    }
  }

  private long append(Producer producer) throws Exception {
    if (producer.appender != null) {
      producer.appender.writeBytes(producer.wrapped);
      return 0;
    }
    return buffer.append(producer.payload);
  }

  @Benchmark
  @Threads(1)
  public long append1Producer(Producer producer) throws Exception {
    return append(producer);
  }

  @Benchmark
  @Threads(4)
  public long append4Producers(Producer producer) throws Exception {
    return append(producer);
  }


}
