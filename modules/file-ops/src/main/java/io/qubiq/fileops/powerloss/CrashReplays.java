package io.qubiq.fileops.powerloss;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Runs a power-loss check over the states of one recorded log: generates them ({@link
 * CrashStates}), replays each into its own fresh directory, hands it to the store's check, and
 * deletes it. The same knobs for every store's test:
 *
 * <ul>
 *   <li>{@code powerloss.states}: at most this many states, a seeded sample (default {@value
 *       #CI_STATES}, CI's budget); 0 replays the whole model ({@code scripts/torture --power-loss});
 *   <li>{@code powerloss.seed}: the sample and the torn lengths;
 *   <li>{@code powerloss.datasheet}: a file each run appends its one-line summary to.
 * </ul>
 *
 * <p>Replays go to {@code /dev/shm} when it is there (the model's fsyncs then cost nothing), else
 * to the given scratch directory.
 */
public final class CrashReplays {
  public static final int CI_STATES = 300;
  private static final int FAILURES_KEPT = 20;

  /** Reopens the store in a replayed state; null when every promise held, else what broke. */
  @FunctionalInterface
  public interface Check {
    String check(CrashState state, Path dir) throws Exception;
  }

  /** What one run found; {@link #line} is its datasheet line. */
  public record Result(String line, List<String> failures) {}

  private CrashReplays() {}

  public static Result run(String store, List<FileOp> log, Path scratch, Check check)
      throws IOException {
    long seed = Long.getLong("powerloss.seed", 20261202L);
    int cap = Integer.getInteger("powerloss.states", CI_STATES);
    List<CrashState> model = CrashStates.generate(log, seed);
    List<CrashState> states = cap > 0 ? CrashStates.sample(model, cap, seed) : model;
    Path base = base(scratch);
    List<String> failures = new ArrayList<>();
    int failed = 0;
    long started = System.nanoTime();
    int n = 0;
    for (CrashState state : states) {
      Path dir = base.resolve("state-" + n++);
      state.replay(log, dir);
      String failure;
      try {
        failure = check.check(state, dir);
      } catch (Exception | AssertionError e) {
        failure = "check failed: " + e;
      }
      if (failure != null) {
        failed++;
        if (failures.size() < FAILURES_KEPT) {
          failures.add(state.description() + ": " + failure);
        }
      }
      deleteTree(dir);
    }
    deleteTree(base);
    String line = String.format("power loss  %-32s %5d states replayed (model %d, %d operations"
        + " logged), %d failures, %.1f s", store, states.size(), model.size(), log.size(), failed,
        (System.nanoTime() - started) / 1e9);
    System.out.println(line);
    String datasheet = System.getProperty("powerloss.datasheet");
    if (datasheet != null) {
      Files.writeString(Path.of(datasheet), line + System.lineSeparator(),
          StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }
    return new Result(line, failures);
  }

  private static Path base(Path scratch) throws IOException {
    Path shm = Path.of("/dev/shm");
    if (Files.isDirectory(shm) && Files.isWritable(shm)) {
      return Files.createTempDirectory(shm, "qubiq-powerloss-");
    }
    return Files.createTempDirectory(scratch, "powerloss-");
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
