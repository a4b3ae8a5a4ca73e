package io.qubiq.buffer;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * Counts a buffer's unconsumed bytes and records and reports high- and low-water crossings, each
 * exactly once per crossing.
 *
 * <p><b>Threading.</b> Two single-writer halves: appenders add under the append lock, the reader
 * and drop-oldest remove under the chain lock. Each half is published with a release store (no
 * fence on the append path) and read with an acquire load; usage is their difference. Listener
 * calls happen on the thread whose change crossed the mark; a CAS makes each crossing fire once.
 */
final class Occupancy {
  private final long limit;
  private final long highWater;
  private final long lowWater;
  private final WatermarkListener listener;
  private static final VarHandle ADDED_BYTES = handle("addedBytes");
  private static final VarHandle ADDED_RECORDS = handle("addedRecords");
  private static final VarHandle REMOVED_BYTES = handle("removedBytes");
  private static final VarHandle REMOVED_RECORDS = handle("removedRecords");

  private volatile long addedBytes;
  private volatile long addedRecords;
  private volatile long removedBytes;
  private volatile long removedRecords;
  private final AtomicBoolean aboveHighWater = new AtomicBoolean();
  /** The held size while {@link #hold} is on, else {@code Long.MAX_VALUE}. */
  private volatile long heldAt = Long.MAX_VALUE;
  /** Null until the owner is constructed; a crossing before that is reported by {@link #statsFrom}. */
  private volatile Supplier<BufferStats> stats;
  private volatile boolean crossingPending;

  private static VarHandle handle(String field) {
    try {
      return MethodHandles.lookup().findVarHandle(Occupancy.class, field, long.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  Occupancy(BufferOptions options, WatermarkListener listener) {
    this.limit = options.maxBytes();
    this.highWater = options.highWaterBytes();
    this.lowWater = options.lowWaterBytes();
    this.listener = listener;
  }

  /**
   * Where the listener's snapshot comes from; set once the owner is constructed. A buffer reopened
   * above its high-water mark crosses it while recovery counts the backlog, before there is any
   * snapshot to give: that crossing is reported here, once, with a real snapshot.
   */
  void statsFrom(Supplier<BufferStats> source) {
    this.stats = source;
    if (crossingPending) {
      crossingPending = false;
      if (aboveHighWater.get()) {
        listener.onHighWater(source.get());
      }
    }
  }

  long limit() {
    return limit;
  }

  long bytes() {
    return addedBytes - removedBytes;
  }

  long records() {
    return addedRecords - removedRecords;
  }

  /** True when {@code more} bytes fit under the limit (and under the held size, while held). */
  boolean fits(long more) {
    return bytes() + more <= Math.min(limit, heldAt);
  }

  /**
   * Holds the size at the bytes used now, at least {@code floor}, or releases the hold. Holding
   * again while held keeps the first size.
   */
  synchronized void hold(boolean on, long floor) {
    if (!on) {
      heldAt = Long.MAX_VALUE;
    } else if (heldAt == Long.MAX_VALUE) {
      heldAt = Math.max(bytes(), floor);
    }
  }

  /** Under the append lock. */
  void added(long bytes, long records) {
    ADDED_RECORDS.setRelease(this, addedRecords + records);
    long total = addedBytes + bytes;
    ADDED_BYTES.setRelease(this, total);
    if (total - removedBytes >= highWater && aboveHighWater.compareAndSet(false, true)) {
      Supplier<BufferStats> source = stats;
      if (source == null) {
        crossingPending = true;
      } else {
        listener.onHighWater(source.get());
      }
    }
  }

  /** Under the chain lock (or the memory buffer's monitor). */
  void removed(long bytes, long records) {
    if (bytes == 0 && records == 0) {
      return;
    }
    REMOVED_RECORDS.setRelease(this, removedRecords + records);
    long total = removedBytes + bytes;
    REMOVED_BYTES.setRelease(this, total);
    if (addedBytes - total <= lowWater && aboveHighWater.compareAndSet(true, false)) {
      Supplier<BufferStats> source = stats;
      if (source == null) {
        crossingPending = false; // back below before anyone could be told: nothing to report
      } else {
        listener.onLowWater(source.get());
      }
    }
  }
}
