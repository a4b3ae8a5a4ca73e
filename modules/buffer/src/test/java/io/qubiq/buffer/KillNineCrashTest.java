package io.qubiq.buffer;

import static io.qubiq.buffer.TestBuffers.idOf;
import static io.qubiq.buffer.TestBuffers.readAll;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A child JVM appends continuously and is killed with SIGKILL at a random point, 21 times. After
 * each kill the buffer is reopened: every append that had returned to the child is present
 * exactly once, in order, with the sequence it was given, and nothing else is.
 */
class KillNineCrashTest {
  private static final int CYCLES = 21;
  private static final int THREADS = 2;
  @TempDir Path temp;

  @Test
  void everyReturnedAppendSurvivesKillNineExactlyOnceAndInOrder() throws Exception {
    long seed = Long.getLong("buffer.crash.seed", System.nanoTime());
    Random random = new Random(seed);
    Path dir = temp.resolve("buffer");
    List<BufferedRecord> expectedOlder = new ArrayList<>();
    int recordsChecked = 0;

    for (int cycle = 0; cycle < CYCLES; cycle++) {
      Durability durability = Durability.values()[cycle % 3];
      int killAfter = durability == Durability.ALWAYS ? 1 + random.nextInt(300)
          : 1 + random.nextInt(20_000);
      String context = "seed " + seed + ", cycle " + cycle + " (" + durability + ", kill after "
          + killAfter + " appends)";
      Map<String, Long> reported = new HashMap<>();
      try (ChildJvm child = ChildJvm.start(CrashTestChild.class, temp.resolve("child.err"),
          dir.toString(), durability.name(), String.valueOf(THREADS), String.valueOf(cycle))) {
        await(context).atMost(Duration.ofSeconds(60))
            .until(() -> child.lines.size() > killAfter || !child.process.isAlive());
        assertThat(child.process.isAlive()).as(context + ": child died on its own").isTrue();
        child.kill();
        for (String line : child.lines) {
          assertThat(line).as(context).doesNotStartWith("E ");
          String[] f = line.split(" ");
          if (f.length == 4 && f[0].equals("A")) {
            reported.put(f[1] + " " + f[2], Long.parseLong(f[3]));
          }
        }
      }

      try (SegmentedDiskBuffer buffer = SegmentedDiskBuffer.open(
          CrashTestChild.options(dir, Durability.NONE), WatermarkListener.none())) {
        List<BufferedRecord> records = readAll(buffer);
        verify(context, cycle, expectedOlder, reported, records);
        System.out.println(context + ": " + reported.size() + " returned, " + records.size()
            + " recovered, report " + buffer.recoveryReport());
        recordsChecked += records.size();
        int keep = random.nextInt(records.size() + 1);
        if (keep < records.size()) {
          buffer.reader().acknowledge(records.get(records.size() - keep - 1).sequence());
        }
        expectedOlder = new ArrayList<>(records.subList(records.size() - keep, records.size()));
      }
    }
    assertThat(recordsChecked).as("seed " + seed).isPositive();
  }

  private static void verify(String context, int cycle, List<BufferedRecord> older,
      Map<String, Long> reported, List<BufferedRecord> records) {
    assertThat(records.size()).as(context).isGreaterThanOrEqualTo(older.size());
    for (int i = 0; i < older.size(); i++) {
      assertThat(records.get(i).sequence()).as(context).isEqualTo(older.get(i).sequence());
      assertThat(records.get(i).payload()).as(context).isEqualTo(older.get(i).payload());
    }
    long previous = Long.MIN_VALUE;
    Set<Long> ids = new HashSet<>();
    long[] nextCounter = new long[THREADS];
    Map<String, Long> found = new HashMap<>();
    for (int i = 0; i < records.size(); i++) {
      BufferedRecord r = records.get(i);
      assertThat(r.sequence()).as(context + ": sequences increase").isGreaterThan(previous);
      previous = r.sequence();
      long id = idOf(r.payload());
      assertThat(ids.add(id)).as(context + ": id " + id + " appears once").isTrue();
      if (i < older.size()) {
        continue;
      }
      assertThat(id / 1_000_000_000L).as(context + ": only this cycle's records are new")
          .isEqualTo(cycle);
      int thread = (int) (id % 1_000_000_000L / 100_000_000L);
      long counter = id % 100_000_000L;
      assertThat(counter).as(context + ": thread " + thread + " in order, no holes")
          .isEqualTo(nextCounter[thread]);
      assertThat(r.payload()).hasSize(Math.max(8, CrashTestChild.size(counter)));
      nextCounter[thread]++;
      found.put(thread + " " + counter, r.sequence());
    }
    for (Map.Entry<String, Long> e : reported.entrySet()) {
      assertThat(found.get(e.getKey())).as(context + ": returned append " + e.getKey())
          .isEqualTo(e.getValue());
    }
  }
}
