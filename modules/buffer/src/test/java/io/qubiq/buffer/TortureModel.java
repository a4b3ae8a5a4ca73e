package io.qubiq.buffer;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What {@link BufferTortureTest} knows about one buffer directory across kills: the records that
 * must still be there, the acknowledged floor and the highest sequence ever handed out. Fed the
 * child's side-channel lines after each kill and the records read after each reopen, it counts
 * what a process crash must never do.
 *
 * <p>After {@code kill -9} the page cache survives, so every durability mode keeps every append
 * that returned and every acknowledgement that returned (Durability, SegmentedDiskBuffer: "every
 * mode survives kill -9"). Allowed: an append or acknowledgement that was in flight at the kill
 * may have happened or not.
 *
 * <p><b>Threading.</b> Used by the test thread only.
 */
final class TortureModel {
  /** The side-channel lines of one child, parsed. */
  record ChildReport(Map<Long, Long> appended, long maxIntentAck, long maxDoneAck,
      boolean ready, String killedInside, List<String> errors) {

    static ChildReport parse(List<String> lines) {
      Map<Long, Long> appended = new TreeMap<>();
      long intentAck = 0;
      long doneAck = 0;
      boolean ready = false;
      int pendingAppends = 0;
      boolean pendingAck = false;
      boolean pendingSync = false;
      List<String> errors = new ArrayList<>();
      for (String line : lines) {
        String[] f = line.split(" ");
        switch (f[0]) {
          case "READY" -> ready = true;
          case "a" -> pendingAppends = 1;
          case "b" -> pendingAppends = Integer.parseInt(f[1]);
          case "A" -> {
            appended.put(Long.parseLong(f[1]), Long.parseLong(f[2]));
            pendingAppends--;
          }
          case "k" -> {
            intentAck = Math.max(intentAck, Long.parseLong(f[1]));
            pendingAck = true;
          }
          case "K" -> {
            doneAck = Math.max(doneAck, Long.parseLong(f[1]));
            pendingAck = false;
          }
          case "s" -> pendingSync = true;
          case "S" -> pendingSync = false;
          default -> errors.add(line);
        }
      }
      String inside = !ready ? "open" : pendingAppends > 0 ? "append" : pendingAck ? "acknowledge"
          : pendingSync ? "sync" : null;
      return new ChildReport(appended, Math.max(intentAck, doneAck), doneAck, ready, inside,
          errors);
    }

    /** Errors are a mutable list: the parent adds what it saw of the child (an early death). */
    @Override
    public List<String> errors() {
      return errors;
    }
  }

  /** What one reopen found against the model. */
  record Verdict(int lost, int reused, int replayed, List<String> problems) {}

  private TreeMap<Long, Long> live = new TreeMap<>();
  private long ackedFloor;
  private long highestIssued;

  /**
   * Checks the records read after a reopen against what the child reported, then takes them as
   * the new expected state.
   */
  Verdict afterReopen(ChildReport child, List<BufferedRecord> records) {
    List<String> problems = new ArrayList<>(child.errors().stream()
        .map(e -> "child reported: " + e).toList());
    int lost = 0;
    int reused = 0;
    int replayed = 0;
    TreeMap<Long, Long> expected = new TreeMap<>(live);
    long maxReported = highestIssued;
    for (Map.Entry<Long, Long> e : child.appended().entrySet()) {
      long sequence = e.getKey();
      if (sequence <= highestIssued) {
        reused++;
        problems.add("append of id " + e.getValue() + " returned sequence " + sequence
            + ", not above " + highestIssued + " handed out before");
      }
      expected.put(sequence, e.getValue());
      maxReported = Math.max(maxReported, sequence);
    }
    long mayBeConsumed = Math.max(ackedFloor, child.maxIntentAck());
    long floor = Math.max(ackedFloor, child.maxDoneAck());

    TreeMap<Long, Long> found = new TreeMap<>();
    for (BufferedRecord r : records) {
      long id;
      try {
        id = TestBuffers.idOf(r.payload());
      } catch (AssertionError e) {
        problems.add("record " + r.sequence() + ": " + e.getMessage());
        continue;
      }
      if (r.payload().length != Math.max(8, TortureChild.size(id))) {
        problems.add("record " + r.sequence() + " (id " + id + ") has the wrong length");
      }
      found.put(r.sequence(), id);
      if (r.sequence() <= floor) {
        replayed++;
        problems.add("record " + r.sequence() + " is back although acknowledged through " + floor);
      }
      Long want = expected.get(r.sequence());
      if (want != null && want != id) {
        reused++;
        problems.add("record " + r.sequence() + " holds id " + id + ", but id " + want
            + " was appended with that sequence");
      } else if (want == null && r.sequence() <= maxReported && r.sequence() > floor) {
        problems.add("record " + r.sequence() + " (id " + id + ") was never reported appended");
      }
    }
    for (Map.Entry<Long, Long> e : expected.tailMap(mayBeConsumed, false).entrySet()) {
      if (!e.getValue().equals(found.get(e.getKey()))) {
        lost++;
        if (lost <= 5) {
          problems.add("returned append " + e.getKey() + " (id " + e.getValue()
              + ") is missing; acknowledged floor " + floor + ", ack in flight up to "
              + mayBeConsumed);
        }
      }
    }
    live = new TreeMap<>(found.tailMap(floor, false));
    ackedFloor = floor;
    highestIssued = Math.max(Math.max(maxReported, mayBeConsumed),
        found.isEmpty() ? 0 : found.lastKey());
    return new Verdict(lost, reused, replayed, problems);
  }

  /** An append made by the verifying parent: it must be above everything handed out before. */
  Verdict probe(long sequence, long id) {
    List<String> problems = new ArrayList<>();
    int reused = 0;
    if (sequence <= highestIssued) {
      reused = 1;
      problems.add("the first append after reopen got sequence " + sequence + ", not above "
          + highestIssued + " handed out before");
    }
    live.put(sequence, id);
    highestIssued = Math.max(highestIssued, sequence);
    return new Verdict(0, reused, 0, problems);
  }

  /** Starts over on a fresh directory (after an open that failed). */
  void reset() {
    live = new TreeMap<>();
    ackedFloor = 0;
    highestIssued = 0;
  }
}
