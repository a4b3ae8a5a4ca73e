package io.qubiq.buffer;

import java.nio.file.Path;
import java.util.Objects;

/**
 * How one buffer is sized and made durable. Defaults live in {@link #defaults(Path)}.
 *
 * @param dir the buffer's own directory (created if missing); ignored by {@link MemoryBuffer}
 * @param segmentBytes size of each segment file, 64 KiB to 1 GiB, a multiple of 4096; bounds the
 *     largest record and the disk space held beyond {@code maxBytes}
 * @param maxBytes limit on unconsumed record bytes; the directory may hold up to {@code maxBytes +
 *     2 * segmentBytes} (the partly consumed head segment and the pre-allocated next one)
 * @param highWaterFraction fraction of {@code maxBytes} at which {@link
 *     WatermarkListener#onHighWater} fires
 * @param lowWaterFraction fraction at which {@link WatermarkListener#onLowWater} fires after a
 *     high-water crossing; below {@code highWaterFraction}
 * @param overflowPolicy what an append does at the limit
 * @param durability when records reach stable storage
 * @param periodicFsyncIntervalMs interval of the background fsync for {@link
 *     Durability#PERIODIC}; ignored otherwise
 */
public record BufferOptions(
    Path dir,
    int segmentBytes,
    long maxBytes,
    double highWaterFraction,
    double lowWaterFraction,
    OverflowPolicy overflowPolicy,
    Durability durability,
    long periodicFsyncIntervalMs) {

  public static final int MIN_SEGMENT_BYTES = 64 * 1024;
  public static final int MAX_SEGMENT_BYTES = 1 << 30;

  public BufferOptions {
    Objects.requireNonNull(overflowPolicy, "overflowPolicy");
    Objects.requireNonNull(durability, "durability");
    if (segmentBytes < MIN_SEGMENT_BYTES
        || segmentBytes > MAX_SEGMENT_BYTES
        || segmentBytes % 4096 != 0) {
      throw new IllegalArgumentException(
          "segment_bytes must be a multiple of 4096 between 64 KiB and 1 GiB, was "
              + segmentBytes);
    }
    if (maxBytes < segmentBytes) {
      throw new IllegalArgumentException(
          "max_bytes (" + maxBytes + ") must be at least segment_bytes (" + segmentBytes + ")");
    }
    if (!(lowWaterFraction > 0 && lowWaterFraction < highWaterFraction && highWaterFraction <= 1)) {
      throw new IllegalArgumentException(
          "need 0 < low_water_fraction < high_water_fraction <= 1, was "
              + lowWaterFraction
              + " and "
              + highWaterFraction);
    }
    if (durability == Durability.PERIODIC && periodicFsyncIntervalMs <= 0) {
      throw new IllegalArgumentException(
          "periodic_fsync_interval_ms must be positive, was " + periodicFsyncIntervalMs);
    }
  }

  /** 64 MiB segments, 1 GiB limit, alarms at 80 % / 60 %, REFUSE, periodic fsync every second. */
  public static BufferOptions defaults(Path dir) {
    return new BufferOptions(
        dir, 64 << 20, 1L << 30, 0.8, 0.6, OverflowPolicy.REFUSE, Durability.PERIODIC, 1000);
  }

  public BufferOptions withSegmentBytes(int value) {
    return new BufferOptions(dir, value, maxBytes, highWaterFraction, lowWaterFraction,
        overflowPolicy, durability, periodicFsyncIntervalMs);
  }

  public BufferOptions withMaxBytes(long value) {
    return new BufferOptions(dir, segmentBytes, value, highWaterFraction, lowWaterFraction,
        overflowPolicy, durability, periodicFsyncIntervalMs);
  }

  public BufferOptions withWaterMarks(double high, double low) {
    return new BufferOptions(dir, segmentBytes, maxBytes, high, low, overflowPolicy, durability,
        periodicFsyncIntervalMs);
  }

  public BufferOptions withOverflowPolicy(OverflowPolicy value) {
    return new BufferOptions(dir, segmentBytes, maxBytes, highWaterFraction, lowWaterFraction,
        value, durability, periodicFsyncIntervalMs);
  }

  public BufferOptions withDurability(Durability value) {
    return new BufferOptions(dir, segmentBytes, maxBytes, highWaterFraction, lowWaterFraction,
        overflowPolicy, value, periodicFsyncIntervalMs);
  }

  public BufferOptions withPeriodicFsyncIntervalMs(long value) {
    return new BufferOptions(dir, segmentBytes, maxBytes, highWaterFraction, lowWaterFraction,
        overflowPolicy, durability, value);
  }

  /** Used bytes at which the high-water event fires. */
  long highWaterBytes() {
    return (long) Math.ceil(maxBytes * highWaterFraction);
  }

  /** Used bytes at or below which the low-water event fires. */
  long lowWaterBytes() {
    return (long) Math.floor(maxBytes * lowWaterFraction);
  }
}
