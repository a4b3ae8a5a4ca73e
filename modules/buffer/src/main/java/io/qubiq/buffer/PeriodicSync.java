package io.qubiq.buffer;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Durability PERIODIC: a daemon thread that runs a group-commit round every interval. A failed
 * round is counted ({@link BufferStats#syncFailures()}) and the next one retries.
 *
 * <p><b>Threading.</b> Started by the buffer's open, stopped by its close; the thread is never
 * interrupted (an interrupt inside {@code FileChannel.force} would close the channel).
 */
final class PeriodicSync implements AutoCloseable {
  private final ScheduledExecutorService executor;

  PeriodicSync(GroupCommit groupCommit, long intervalMs, String name) {
    executor = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "qubiq-buffer-fsync " + name);
      t.setDaemon(true);
      return t;
    });
    executor.scheduleWithFixedDelay(() -> {
      try {
        groupCommit.syncNow();
      } catch (BufferIOException e) {
        // Counted by the group commit; the next round retries.
      } catch (RuntimeException | Error e) {
        // Thrown out of this task, anything would cancel every later round without a word (the
        // scheduler's contract): the buffer would silently stop being fsynced. The next round
        // tries again; a failing fsync itself is reported by the group commit.
      }
    }, intervalMs, intervalMs, TimeUnit.MILLISECONDS);
  }

  /** Cancels future rounds and waits for a running one to finish. */
  @Override
  public void close() {
    executor.shutdown();
    try {
      executor.awaitTermination(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
