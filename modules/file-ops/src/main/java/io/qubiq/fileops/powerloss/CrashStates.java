package io.qubiq.fileops.powerloss;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * The states a power cut could leave, generated from a {@link RecordingFileOps} log.
 *
 * <p><b>The crash model.</b> A barrier is an fsync of a file ({@link FileOp.Force}) or of a
 * directory ({@link FileOp.SyncDirectory}). A write or truncation is <em>durable</em> once a later
 * fsync of its file was logged; a rename or delete once a later fsync of its directory (for a
 * rename, the target's) was.
 * Anything else that was issued is <em>pending</em>: it may or may not be on the disk, and a
 * pending write may be torn (only a prefix of its bytes arrived). File and directory creation is
 * taken as durable when issued (the file may still be empty). The states are:
 *
 * <ol>
 *   <li>every prefix of the log that ends at a barrier, wholly applied;
 *   <li>for each stretch between two barriers (and the one after the last), the prefix up to the
 *       second barrier with everything applied, then with each single write or truncation of the
 *       stretch dropped, each single write torn (a seeded random prefix of its bytes), and each
 *       single pending rename or delete undone;
 *   <li>for the same stretch, {@value #RANDOM_SUBSETS} seeded random subsets of every operation
 *       pending at that point (each kept with probability 1/2, a kept write torn with 1/4).
 * </ol>
 *
 * <p>Not modelled: a file create that is lost, bytes that change without being written (bit rot;
 * the corruption tests cover that), and a write that reaches the disk out of order with an fsync
 * of its own file.
 */
public final class CrashStates {
  public static final int RANDOM_SUBSETS = 64;

  private CrashStates() {}

  /** Every state of the model, in log order; deterministic for a seed. */
  public static List<CrashState> generate(List<FileOp> log, long seed) {
    Random random = new Random(seed);
    int[] durableAt = durableAt(log);
    List<CrashState> states = new ArrayList<>();
    int stretchStart = 0;
    for (int end = 0; end <= log.size(); end++) {
      boolean atBarrier = end < log.size() && log.get(end).barrier();
      if (!atBarrier && end < log.size()) {
        continue;
      }
      stretch(log, durableAt, stretchStart, end, random, states);
      if (atBarrier) {
        states.add(new CrashState(end + 1, Map.of(), "after " + describe(log, end)));
      }
      stretchStart = end + 1;
    }
    return states;
  }

  /** A seeded sample of at most {@code max} states, kept in log order. */
  public static List<CrashState> sample(List<CrashState> states, int max, long seed) {
    if (states.size() <= max) {
      return states;
    }
    List<Integer> indices = new ArrayList<>();
    for (int i = 0; i < states.size(); i++) {
      indices.add(i);
    }
    java.util.Collections.shuffle(indices, new Random(seed));
    List<Integer> chosen = new ArrayList<>(indices.subList(0, max));
    chosen.sort(null);
    List<CrashState> sample = new ArrayList<>();
    for (int i : chosen) {
      sample.add(states.get(i));
    }
    return sample;
  }

  /** The states for the power going just before operation {@code end} (or after the last). */
  private static void stretch(List<FileOp> log, int[] durableAt, int start, int end,
      Random random, List<CrashState> states) {
    if (end == start) {
      return; // nothing between two barriers: the state after the first is that state
    }
    String at = end < log.size() ? "before " + describe(log, end) : "at the end";
    states.add(new CrashState(end, Map.of(), "everything issued " + at));
    for (int i = start; i < end; i++) {
      FileOp op = log.get(i);
      if (durableAt[i] < end) {
        continue;
      }
      if (op instanceof FileOp.Write w) {
        states.add(new CrashState(end, Map.of(i, 0), describe(log, i) + " dropped, " + at));
        if (w.bytes().length > 1) {
          int keep = 1 + random.nextInt(w.bytes().length - 1);
          states.add(new CrashState(end, Map.of(i, keep),
              describe(log, i) + " torn after " + keep + " bytes, " + at));
        }
      } else if (op instanceof FileOp.Truncate || op instanceof FileOp.Move
          || op instanceof FileOp.Delete) {
        states.add(new CrashState(end, Map.of(i, 0), describe(log, i) + " undone, " + at));
      }
    }
    List<Integer> pending = new ArrayList<>();
    for (int i = 0; i < end; i++) {
      FileOp op = log.get(i);
      boolean mayBeLost = op instanceof FileOp.Write || op instanceof FileOp.Truncate
          || op instanceof FileOp.Move || op instanceof FileOp.Delete;
      if (mayBeLost && durableAt[i] >= end) {
        pending.add(i);
      }
    }
    if (pending.size() < 2) {
      return; // the single-operation states above already cover it
    }
    Set<Map<Integer, Integer>> seen = new HashSet<>();
    for (int n = 0; n < RANDOM_SUBSETS; n++) {
      Map<Integer, Integer> kept = new HashMap<>();
      for (int i : pending) {
        if (random.nextBoolean()) {
          kept.put(i, 0);
        } else if (log.get(i) instanceof FileOp.Write w && w.bytes().length > 1
            && random.nextInt(4) == 0) {
          kept.put(i, 1 + random.nextInt(w.bytes().length - 1));
        }
      }
      if (!kept.isEmpty() && seen.add(kept)) {
        states.add(new CrashState(end, kept, "random subset " + n + " of " + pending.size()
            + " pending operations (" + kept.size() + " lost or torn), " + at));
      }
    }
  }

  /**
   * For each operation, the index of the first later barrier that makes it durable
   * ({@code Integer.MAX_VALUE} when none does); barriers and notes are durable at once.
   */
  static int[] durableAt(List<FileOp> log) {
    int[] durable = new int[log.size()];
    Arrays.fill(durable, Integer.MAX_VALUE);
    Map<Integer, List<Integer>> openWrites = new HashMap<>();
    Map<String, List<Integer>> openNames = new HashMap<>();
    for (int i = 0; i < log.size(); i++) {
      FileOp op = log.get(i);
      if (op instanceof FileOp.Write w) {
        openWrites.computeIfAbsent(w.file(), f -> new ArrayList<>()).add(i);
      } else if (op instanceof FileOp.Truncate t) {
        openWrites.computeIfAbsent(t.file(), f -> new ArrayList<>()).add(i);
      } else if (op instanceof FileOp.Move m) {
        openNames.computeIfAbsent(FileOp.parent(m.to()), d -> new ArrayList<>()).add(i);
      } else if (op instanceof FileOp.Delete d) {
        openNames.computeIfAbsent(FileOp.parent(d.path()), p -> new ArrayList<>()).add(i);
      } else if (op instanceof FileOp.Force f) {
        durable[i] = i;
        for (int w : openWrites.getOrDefault(f.file(), List.of())) {
          durable[w] = i;
        }
        openWrites.remove(f.file());
      } else if (op instanceof FileOp.SyncDirectory s) {
        durable[i] = i;
        for (int n : openNames.getOrDefault(s.path(), List.of())) {
          durable[n] = i;
        }
        openNames.remove(s.path());
      } else {
        durable[i] = i; // creates and notes
      }
    }
    return durable;
  }

  private static String describe(List<FileOp> log, int index) {
    return "#" + index + " " + log.get(index);
  }
}
