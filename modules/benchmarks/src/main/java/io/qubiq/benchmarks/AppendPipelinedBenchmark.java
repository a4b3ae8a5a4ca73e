package io.qubiq.benchmarks;

import io.qubiq.buffer.BufferOptions;
import io.qubiq.buffer.Durability;
import io.qubiq.buffer.SegmentedDiskBuffer;
import io.qubiq.buffer.WatermarkListener;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
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
 * Durability ALWAYS with four producers that each keep up to {@link #WINDOW} appends in flight
 * ({@code appendAsync}) and wait for the oldest one's fsync when the window is full. No append is
 * confirmed to its producer before the fsync that covers it, so this is the rate of durable
 * appends; the group commit carries up to 4 x WINDOW records per fsync. A blocking {@code append}
 * can carry at most one record per producer per fsync ({@link AppendBenchmark}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class AppendPipelinedBenchmark {
  static final int WINDOW = 64;

  @Param({"100", "4096"})
  public int recordBytes;

  SegmentedDiskBuffer buffer;
  private Path dir;

  @Setup(Level.Iteration)
  public void open() throws Exception {
    dir = BenchFiles.newDirectory("append-pipelined");
    buffer = SegmentedDiskBuffer.open(BufferOptions.defaults(dir).withMaxBytes(1L << 40)
        .withDurability(Durability.ALWAYS), WatermarkListener.none());
  }

  @TearDown(Level.Iteration)
  public void close() throws Exception {
    buffer.close();
    BenchFiles.delete(dir);
  }

  /** One producer: its record and its appends still waiting for their fsync. */
  @State(Scope.Thread)
  public static class Producer {
    byte[] payload;
    final ArrayDeque<CompletableFuture<Long>> inFlight = new ArrayDeque<>();

    @Setup(Level.Trial)
    public void create(AppendPipelinedBenchmark benchmark) {
      payload = new byte[benchmark.recordBytes];
      ThreadLocalRandom.current().nextBytes(payload);
    }

    @TearDown(Level.Iteration)
    public void drain() {
      inFlight.forEach(CompletableFuture::join);
      inFlight.clear();
    }
  }

  @Benchmark
  @Threads(4)
  public long append4ProducersPipelined(Producer producer) throws Exception {
    producer.inFlight.addLast(buffer.appendAsync(producer.payload));
    if (producer.inFlight.size() > WINDOW) {
      return producer.inFlight.removeFirst().join();
    }
    return 0;
  }
}
