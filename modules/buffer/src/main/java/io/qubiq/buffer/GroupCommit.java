package io.qubiq.buffer;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * Shares one fsync among every appender waiting for one (group commit).
 *
 * <p>Appenders register the sequence they need durable and wait. One background thread runs
 * rounds while anything is waiting: it reads the highest published sequence, fsyncs, declares
 * everything up to that sequence durable and completes those waiters. Every append that arrives
 * while a round runs waits for the next round, which covers them all; with blocking appends that
 * is one record per producer per round, with {@link DurableBuffer#appendAsync} as many as the
 * producers keep in flight. {@link #syncNow()} runs a round on the calling thread (the periodic
 * fsync thread and close).
 *
 * <p><b>Failure.</b> When an fsync fails (anything it throws, an {@link Error} included), every
 * waiter whose record it was meant to cover gets a {@link BufferIOException}; later appends start a
 * fresh fsync, on the same thread. On Linux a failed fsync may have
 * dropped dirty pages, so a record reported this way is maybe-stored, not known-lost.
 *
 * <p><b>Threading.</b> Safe for any number of threads.
 */
final class GroupCommit {
  /** The fsync of everything published. */
  interface Flush {
    void run() throws IOException;
  }

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition finished = lock.newCondition();
  private final LongSupplier published;
  private final Flush flush;
  private long durable;
  private long failedThrough = Long.MIN_VALUE;
  private IOException failure;
  private boolean running;
  private long rounds;
  private long failures;
  private final List<Pending> pending = new ArrayList<>();
  private Thread syncer;
  private boolean stopped;

  /** An asynchronous append waiting for its fsync. */
  private record Pending(long sequence, CompletableFuture<Long> future) {}

  GroupCommit(LongSupplier published, Flush flush, long durableAtOpen) {
    this.published = published;
    this.flush = flush;
    this.durable = durableAtOpen;
  }

  /**
   * Returns once {@code sequence} is durable. The fsync runs on the group-commit thread, never
   * on the caller's: an interrupt during file I/O closes a JDK file channel, so fsyncs stay on a
   * thread nobody else interrupts. The wait itself ignores interrupts (the interrupt flag stays
   * set for the caller).
   */
  void awaitDurable(long sequence) throws BufferIOException {
    try {
      durable(sequence).join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof BufferIOException io) {
        throw io;
      }
      throw new BufferIOException("fsync of record " + sequence + " did not complete",
          new IOException(e.getCause()));
    }
  }

  /**
   * A future completed once {@code sequence} is durable, or failed with a {@link
   * BufferIOException} when the fsync meant to cover it fails. A daemon thread, started on first
   * use, runs fsync rounds while futures are pending; appends arriving during a round wait for
   * the next one, so a pipelined producer gets many records into each fsync.
   */
  CompletableFuture<Long> durable(long sequence) {
    lock.lock();
    try {
      if (durable >= sequence) {
        return CompletableFuture.completedFuture(sequence);
      }
      CompletableFuture<Long> future = new CompletableFuture<>();
      if (stopped) {
        future.completeExceptionally(new IllegalStateException("buffer is closed"));
        return future;
      }
      pending.add(new Pending(sequence, future));
      if (syncer == null) {
        syncer = new Thread(this::syncPending, "qubiq-buffer-group-commit");
        syncer.setDaemon(true);
        syncer.start();
      }
      finished.signalAll();
      return future;
    } finally {
      lock.unlock();
    }
  }

  private void syncPending() {
    lock.lock();
    try {
      while (true) {
        while (!stopped && (pending.isEmpty() || running)) {
          finished.awaitUninterruptibly();
        }
        if (stopped) {
          return;
        }
        lead();
      }
    } finally {
      lock.unlock();
    }
  }

  /** Under the lock, after a round: settles the futures the round decided. */
  private void settlePending() {
    pending.removeIf(p -> {
      if (p.sequence() <= durable) {
        p.future().complete(p.sequence());
        return true;
      }
      if (p.sequence() <= failedThrough) {
        p.future().completeExceptionally(new BufferIOException("fsync failed; record "
            + p.sequence() + " may be stored but is not known to be durable", failure));
        return true;
      }
      return false;
    });
  }

  /**
   * Stops the background fsync thread; with {@code lastRound}, after a last fsync round that
   * settles every pending future (close), else failing them (crash simulation).
   */
  void stop(boolean lastRound) {
    lock.lock();
    try {
      if (lastRound && !pending.isEmpty()) {
        while (running) {
          finished.awaitUninterruptibly();
        }
        lead();
      }
      stopped = true;
      for (Pending p : pending) {
        p.future().completeExceptionally(new IllegalStateException("buffer closed"));
      }
      pending.clear();
      finished.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Fsyncs everything published now, whether or not anyone waits. */
  void syncNow() throws BufferIOException {
    lock.lock();
    try {
      while (running) {
        finished.awaitUninterruptibly();
      }
      IOException error = lead();
      if (error != null) {
        throw new BufferIOException("fsync failed", error);
      }
    } finally {
      lock.unlock();
    }
  }

  /** Runs one fsync round with the lock released during the fsync; returns its failure. */
  private IOException lead() {
    running = true;
    long target = published.getAsLong();
    IOException error = null;
    lock.unlock();
    try {
      flush.run();
    } catch (IOException e) {
      error = e;
    } catch (RuntimeException | Error e) {
      // an Error too: let through, it would have marked the round durable on the way out (the
      // finally below saw no error) and ended the group-commit thread, leaving later waiters
      // waiting for ever. It fails this round's waiters as maybe-stored, like a failed fsync.
      error = new IOException("fsync round failed: " + e, e);
    } finally {
      lock.lock();
      running = false;
      if (error == null) {
        durable = Math.max(durable, target);
        rounds++;
      } else {
        failedThrough = Math.max(failedThrough, target);
        failure = error;
        failures++;
      }
      settlePending();
      finished.signalAll();
    }
    return error;
  }

  long rounds() {
    lock.lock();
    try {
      return rounds;
    } finally {
      lock.unlock();
    }
  }

  long failures() {
    lock.lock();
    try {
      return failures;
    } finally {
      lock.unlock();
    }
  }

}
