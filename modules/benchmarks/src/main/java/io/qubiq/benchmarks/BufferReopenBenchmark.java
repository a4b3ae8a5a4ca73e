package io.qubiq.benchmarks;

import io.qubiq.buffer.RecoveryReport;
import io.qubiq.buffer.SegmentedDiskBuffer;
import io.qubiq.buffer.WatermarkListener;
import java.nio.file.Path;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * Time to open a {@code backlogMiB} backlog: {@link #cleanReopen} after an orderly close (seals
 * trusted, no scan), {@link #crashReopenScan} with the marker and every seal removed, so recovery
 * validates every record (length, sequence, CRC32C). The backlog is written once per trial; its
 * pages are in the page cache, so the scan measures CPU and memory, not the disk. Scan rate =
 * backlog bytes / score.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 5)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class BufferReopenBenchmark {
  @Param({"2048"})
  public int backlogMiB;

  private Path dir;
  private SegmentedDiskBuffer opened;

  @Setup(Level.Trial)
  public void writeBacklog() throws Exception {
    dir = Backlog.write(backlogMiB);
    System.out.println("backlog: " + Backlog.bytes(dir) + " bytes of segments in " + dir);
  }

  @TearDown(Level.Trial)
  public void deleteBacklog() throws Exception {
    BenchFiles.delete(dir);
  }

  @TearDown(Level.Invocation)
  public void close() throws Exception {
    if (opened != null) {
      opened.close();
      opened = null;
    }
  }

  /** Marker and seals removed before each {@link #crashReopenScan} invocation. */
  @State(Scope.Benchmark)
  public static class Crashed {
    @Setup(Level.Invocation)
    public void forget(BufferReopenBenchmark benchmark) throws Exception {
      Backlog.forgetSeals(benchmark.dir);
    }
  }

  @Benchmark
  public RecoveryReport cleanReopen() throws Exception {
    opened = SegmentedDiskBuffer.open(Backlog.options(dir), WatermarkListener.none());
    RecoveryReport report = opened.recoveryReport();
    if (!report.cleanShutdown() || report.segmentsScanned() != 0) {
      throw new IllegalStateException("expected a clean reopen: " + report);
    }
    return report;
  }

  @Benchmark
  public RecoveryReport crashReopenScan(Crashed crashed) throws Exception {
    opened = SegmentedDiskBuffer.open(Backlog.options(dir), WatermarkListener.none());
    RecoveryReport report = opened.recoveryReport();
    if (report.cleanShutdown() || report.segmentsTrusted() != 0 || !report.intact()) {
      throw new IllegalStateException("expected a full scan: " + report);
    }
    return report;
  }
}
