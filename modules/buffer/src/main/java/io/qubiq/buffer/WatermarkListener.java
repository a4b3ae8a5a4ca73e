package io.qubiq.buffer;

/**
 * Told when a buffer's used bytes cross its high-water mark upwards and, later, its low-water
 * mark downwards; each crossing is reported once. The store-and-forward layer raises and clears
 * its buffer-pressure alarm from these.
 *
 * <p><b>Threading.</b> Called on the appending or acknowledging thread that caused the crossing,
 * while it holds the buffer's internal locks: return quickly, and do not append, peek or
 * acknowledge from the callback ({@link DurableBuffer#stats()} is fine).
 */
public interface WatermarkListener {

  /** Used bytes reached the high-water mark. */
  void onHighWater(BufferStats stats);

  /** Used bytes fell to the low-water mark after a high-water crossing. */
  void onLowWater(BufferStats stats);

  /**
   * A read stepped over damaged data (checksum, length or sequence wrong) after the buffer was
   * opened; damage found while opening is in {@link DurableBuffer#recoveryReport()} instead. The
   * records before and after it are still delivered. Called on the reading thread.
   */
  default void onDamage(BufferDamage damage) {}

  /** A listener that ignores every event. */
  static WatermarkListener none() {
    return new WatermarkListener() {
      @Override
      public void onHighWater(BufferStats stats) {}

      @Override
      public void onLowWater(BufferStats stats) {}
    };
  }
}
