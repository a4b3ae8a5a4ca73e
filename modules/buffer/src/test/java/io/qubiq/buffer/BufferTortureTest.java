package io.qubiq.buffer;

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
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kill -9 that lands inside writes. A child JVM ({@link TortureChild}) appends, reads and
 * acknowledges on 64 KiB segments, so that within a few hundred milliseconds it rolls segments,
 * fills the buffer to its limit and deletes acknowledged segments; it reports every call on a
 * side channel after the call returns. The parent kills it with SIGKILL after a seeded random
 * delay (one cycle in eight during its start, so some kills land inside recovery), reopens the
 * buffer in-process and checks with {@link TortureModel}:
 * <ul>
 *   <li>the open never throws;
 *   <li>every append that returned and was not acknowledged is there, with its payload, in every
 *       durability mode (a process crash keeps the page cache);
 *   <li>no acknowledged record comes back (the floor never goes back);
 *   <li>no sequence number is handed out twice: the parent's own first append after the reopen
 *       (every other cycle, never after a kill inside a segment roll: then the next child gets
 *       the buffer as recovery left it, with an empty newest segment) and every append of the
 *       next child get a sequence above every one seen before.
 * </ul>
 * Then the parent closes the buffer cleanly or as a crash would (at random) and the next child
 * opens it. CI runs {@value #CI_CYCLES} cycles per durability mode. {@code scripts/torture}
 * runs more through system properties: {@code buffer.torture.cycles} (per mode), {@code
 * buffer.torture.minutes} (time budget for all modes), {@code buffer.torture.seed}, {@code
 * buffer.torture.modes} (comma-separated), {@code buffer.torture.longestDelayMs} (one cycle in
 * sixteen kills after up to this long, default 1 s; the others within 300 ms) and {@code
 * buffer.torture.datasheet} (a file that gets one line per mode). The modes run side by side, each
 * on its own directory.
 */
class BufferTortureTest {
  private static final int CI_CYCLES = 20;
  private static final long PROBE_COUNTER = 900_000_000L;
  @TempDir Path temp;

  /** Counts for one durability mode: one datasheet line. */
  private static final class Sheet {
    final Durability mode;
    final long seed;
    int cycles;
    int insideWrites;
    int insideRolls;
    int insideOpen;
    int lost;
    int reused;
    int replayed;
    int failedOpens;
    int childErrors;
    long recordsChecked;
    final List<Double> recoveryMs = new ArrayList<>();
    final List<String> problems = new ArrayList<>();

    Sheet(Durability mode, long seed) {
      this.mode = mode;
      this.seed = seed;
    }

    String line() {
      double mean = recoveryMs.stream().mapToDouble(Double::doubleValue).average().orElse(0);
      double max = recoveryMs.stream().mapToDouble(Double::doubleValue).max().orElse(0);
      return String.format("buffer/%s: cycles %d, kills inside writes %d (%d of them inside a"
              + " segment roll; and %d inside open),"
              + " acknowledged items lost %d, sequences reused %d, acknowledged replayed %d,"
              + " failed opens %d, child errors %d, recovery ms mean %.1f max %.1f,"
              + " records checked %d, seed %d",
          mode.name().toLowerCase(), cycles, insideWrites, insideRolls, insideOpen, lost, reused,
          replayed, failedOpens, childErrors, mean, max, recordsChecked, seed);
    }
  }

  @Test
  void returnedAppendsSurviveKillNineLandingInsideWritesInEveryDurabilityMode() throws Exception {
    long seed = Long.getLong("buffer.torture.seed", System.nanoTime());
    int cycles = Integer.getInteger("buffer.torture.cycles", CI_CYCLES);
    double minutes = Double.parseDouble(System.getProperty("buffer.torture.minutes", "0"));
    List<Durability> modes = Arrays.stream(System.getProperty("buffer.torture.modes",
            "none,periodic,always").split(","))
        .map(m -> Durability.valueOf(m.trim().toUpperCase())).toList();
    long budgetNanos = minutes > 0 ? (long) (minutes * 60e9 / modes.size()) : Long.MAX_VALUE;

    int longestDelayMs = Integer.getInteger("buffer.torture.longestDelayMs", 1_000);
    List<Sheet> sheets = modes.stream().map(m -> new Sheet(m, seed + m.ordinal())).toList();
    ExecutorService pool = Executors.newFixedThreadPool(sheets.size());
    try {
      List<Future<?>> runs = new ArrayList<>();
      for (Sheet sheet : sheets) {
        runs.add(pool.submit(() -> {
          try {
            run(sheet, cycles, budgetNanos, longestDelayMs);
          } catch (Exception | Error e) {
            sheet.problems.add("seed " + sheet.seed + ", " + sheet.mode + ": the run stopped: "
                + e);
          }
          return null;
        }));
      }
      for (Future<?> run : runs) {
        run.get();
      }
    } finally {
      pool.shutdownNow();
    }
    String datasheet = System.getProperty("buffer.torture.datasheet");
    for (Sheet sheet : sheets) {
      System.out.println(sheet.line());
      sheet.problems.stream().limit(50).forEach(System.out::println);
      if (datasheet != null) {
        Files.writeString(Path.of(datasheet), sheet.line() + System.lineSeparator(),
            StandardOpenOption.CREATE, StandardOpenOption.APPEND);
      }
    }
    for (Sheet sheet : sheets) {
      assertThat(sheet.problems).as(sheet.line()).isEmpty();
      assertThat(sheet.cycles).as(sheet.line()).isPositive();
    }
  }

  private void run(Sheet sheet, int cycles, long budgetNanos, int longestDelayMs)
      throws Exception {
    Random random = new Random(sheet.seed);
    long started = System.nanoTime();
    String name = sheet.mode.name().toLowerCase();
    Path dir = temp.resolve(name);
    TortureModel model = new TortureModel();
    for (int cycle = 0; cycle < cycles && System.nanoTime() - started < budgetNanos; cycle++) {
      String context = "seed " + sheet.seed + ", " + name + " cycle " + cycle;
      int kind = random.nextInt(16);
      boolean duringStart = kind < 2;
      int delayMs = duringStart ? random.nextInt(1_500)
          : kind == 2 ? random.nextInt(longestDelayMs) : random.nextInt(300);
      TortureModel.ChildReport report = killChild(dir, sheet.mode, cycle, random.nextLong(),
          duringStart, delayMs, context);
      sheet.cycles++;
      sheet.childErrors += report.errors().size();
      boolean emptyNewest = newestSegmentIsEmpty(dir);
      if ("open".equals(report.killedInside())) {
        sheet.insideOpen++;
      } else if (report.killedInside() != null) {
        sheet.insideWrites++;
        if (report.killedInside().equals("append") && emptyNewest) {
          sheet.insideRolls++;
        }
      }
      context += " (killed " + delayMs + " ms after " + (duringStart ? "start" : "READY")
          + (report.killedInside() == null ? "" : ", inside " + report.killedInside()) + ")";

      long openStarted = System.nanoTime();
      SegmentedDiskBuffer buffer;
      try {
        buffer = SegmentedDiskBuffer.open(TortureChild.options(dir, sheet.mode),
            WatermarkListener.none());
      } catch (Exception | Error e) {
        sheet.failedOpens++;
        sheet.problems.add(context + ": open failed: " + e);
        Files.move(dir, temp.resolve(name + "-failed-" + cycle));
        model.reset();
        continue;
      }
      sheet.recoveryMs.add((System.nanoTime() - openStarted) / 1e6);
      try {
        List<BufferedRecord> records = TestBuffers.readAll(buffer);
        sheet.recordsChecked += records.size();
        tally(sheet, context, model.afterReopen(report, records));
        if (random.nextBoolean() && !emptyNewest) {
          long probeId = TortureChild.id(cycle, PROBE_COUNTER);
          tally(sheet, context,
              model.probe(buffer.append(TortureChild.payload(probeId)), probeId));
        }
      } finally {
        if (random.nextBoolean()) {
          buffer.close();
        } else {
          buffer.simulateCrash();
        }
      }
    }
  }

  /**
   * True when the newest segment holds no record: the kill came after a roll renamed the new
   * segment and before its first record.
   */
  private static boolean newestSegmentIsEmpty(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return false; // the first child died before it created the directory
    }
    List<Path> segments = TestBuffers.segmentFiles(dir);
    if (segments.isEmpty()) {
      return false;
    }
    try (FileChannel channel = FileChannel.open(segments.get(segments.size() - 1))) {
      ByteBuffer length = ByteBuffer.allocate(4);
      channel.read(length, SegmentHeader.BYTES);
      return length.position() == 4 && length.getInt(0) == 0;
    }
  }

  private static void tally(Sheet sheet, String context, TortureModel.Verdict verdict) {
    sheet.lost += verdict.lost();
    sheet.reused += verdict.reused();
    sheet.replayed += verdict.replayed();
    verdict.problems().forEach(p -> sheet.problems.add(context + ": " + p));
  }

  private TortureModel.ChildReport killChild(Path dir, Durability mode, int cycle, long seed,
      boolean duringStart, int delayMs, String context) throws IOException, InterruptedException {
    Path stderr = temp.resolve("child-" + mode.name().toLowerCase() + ".err");
    try (ChildJvm child = ChildJvm.start(TortureChild.class, stderr, dir.toString(), mode.name(),
        String.valueOf(cycle), String.valueOf(seed))) {
      if (!duringStart) {
        await(context).atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(5))
            .until(() -> !child.lines.isEmpty() || !child.process.isAlive());
      }
      Thread.sleep(delayMs);
      boolean diedAlone = !child.process.isAlive();
      child.kill();
      TortureModel.ChildReport report = TortureModel.ChildReport.parse(child.lines);
      if (diedAlone) {
        report.errors().add("the child died on its own, exit " + child.process.exitValue()
            + ", stderr: " + Files.readString(stderr));
      }
      return report;
    }
  }
}
