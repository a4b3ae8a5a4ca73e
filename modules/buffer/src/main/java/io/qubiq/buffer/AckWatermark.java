package io.qubiq.buffer;

import io.qubiq.fileops.FileOps;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.EnumSet;
import java.util.zip.CRC32C;

/**
 * The persisted consume watermark: every sequence at or below it was acknowledged by the reader or
 * dropped by DROP_OLDEST, and need not be replayed.
 *
 * <p><b>Layout.</b> File {@code ack.wm}: two 32-byte slots, at offset 0 and at offset 4096 (separate
 * pages), little-endian:
 *
 * <pre>
 *  0 8 consumed: highest consumed sequence
 *  8 8 floor: the next sequence may not be lower (survives segments that were set aside)
 * 16 8 counter: incremented by every write; selects the newer slot
 * 24 4 CRC32C of bytes 0..24
 * 28 4 zero
 * </pre>
 *
 * <p><b>Crash behaviour.</b> Every write goes to the slot that does not hold the last synced
 * value (after a {@link #sync()} the roles swap), so however many writes come between two syncs,
 * a torn one damages only the slot being written and the other still holds the synced value; on
 * open the valid slot with the higher counter wins (none valid: consumed 0, floor 1). Plain
 * alternation would not do: two writes between syncs overwrite both slots, and a power cut that
 * tears the second and drops the first takes the watermark back below a sync (found by {@code
 * WatermarkPowerLossTest}). A write goes to the page cache; {@link
 * #sync()} fsyncs it, and the chain calls it before deleting any segment the watermark frees, so a
 * deleted segment is never needed again. An unsynced watermark can only go backwards on power
 * loss, which replays acknowledged records (at least once) but never loses one.
 *
 * <p><b>Threading.</b> Every method is synchronized: the reader writes, the sync thread fsyncs.
 */
final class AckWatermark implements AutoCloseable {
  static final String FILE_NAME = "ack.wm";
  private static final int SLOT_BYTES = 32;
  private static final int SECOND_SLOT = 4096;

  private final FileChannel channel;
  private final CRC32C crc = new CRC32C();
  private long consumed;
  private long floor;
  private long counter;
  private long deferredConsumed;
  private boolean unsynced;
  private final boolean damaged;
  /** Position of the slot holding the newest value known to be on disk; never written over. */
  private long durableSlot;
  private long lastWrittenSlot;

  private AckWatermark(FileChannel channel, long consumed, long floor, long counter,
      boolean damaged, long durableSlot) {
    this.channel = channel;
    this.durableSlot = durableSlot;
    this.lastWrittenSlot = durableSlot;
    this.damaged = damaged;
    this.consumed = consumed;
    this.deferredConsumed = consumed;
    this.floor = floor;
    this.counter = counter;
  }

  static AckWatermark open(Path dir, FileOps channels) throws IOException {
    FileChannel channel = channels.open(dir.resolve(FILE_NAME), EnumSet.of(
        StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE));
    try {
      long[] best = {0, 1, 0};
      long bestSlot = SECOND_SLOT; // none valid: the first write goes to offset 0
      boolean found = false;
      for (long position : new long[] {0, SECOND_SLOT}) {
        ByteBuffer slot = ByteBuffer.allocate(SLOT_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        while (slot.hasRemaining() && channel.read(slot, position + slot.position()) > 0) {
          // keep reading
        }
        if (slot.hasRemaining()) {
          continue;
        }
        CRC32C check = new CRC32C();
        check.update(slot.array(), 0, 24);
        if ((int) check.getValue() != slot.getInt(24)) {
          continue;
        }
        if (!found || slot.getLong(16) > best[2]) {
          best = new long[] {slot.getLong(0), slot.getLong(8), slot.getLong(16)};
          bestSlot = position;
          found = true;
        }
      }
      return new AckWatermark(channel, best[0], best[1], best[2], !found && channel.size() > 0,
          bestSlot);
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
  }

  /**
   * True when the file had bytes but neither slot was valid: how far the reader had got is
   * unknown, so replay starts at the oldest record (acknowledged ones may be delivered again).
   * A missing or empty file is a new buffer, or one whose watermark was deleted: see {@link
   * #known()}.
   */
  boolean damaged() {
    return damaged;
  }

  /** True when {@link #consumed()} was read from a valid slot (or written since open). */
  synchronized boolean known() {
    return counter > 0;
  }

  synchronized long consumed() {
    return Math.max(consumed, deferredConsumed);
  }

  synchronized long floor() {
    return floor;
  }

  /** Writes a new consumed value (page cache); on failure nothing changes. */
  synchronized void write(long newConsumed) throws IOException {
    writeSlot(Math.max(newConsumed, consumed()), floor);
  }

  /** Raises the floor and writes it. */
  synchronized void raiseFloor(long newFloor) throws IOException {
    if (newFloor > floor) {
      writeSlot(consumed(), newFloor);
    }
  }

  /** Remembers a consumed value to be written by the next write or {@link #sync()}. */
  synchronized void defer(long newConsumed) {
    deferredConsumed = Math.max(deferredConsumed, newConsumed);
  }

  /** Writes any deferred value and fsyncs; afterwards the watermark survives power loss. */
  synchronized void sync() throws IOException {
    if (deferredConsumed > consumed) {
      writeSlot(deferredConsumed, floor);
    }
    if (unsynced) {
      channel.force(false);
      unsynced = false;
      durableSlot = lastWrittenSlot;
    }
  }

  synchronized boolean needsSync() {
    return unsynced || deferredConsumed > consumed;
  }

  private void writeSlot(long newConsumed, long newFloor) throws IOException {
    long next = counter + 1;
    ByteBuffer slot = ByteBuffer.allocate(SLOT_BYTES).order(ByteOrder.LITTLE_ENDIAN);
    slot.putLong(0, newConsumed).putLong(8, newFloor).putLong(16, next);
    crc.reset();
    crc.update(slot.array(), 0, 24);
    slot.putInt(24, (int) crc.getValue());
    long position = durableSlot == 0 ? SECOND_SLOT : 0;
    while (slot.hasRemaining()) {
      channel.write(slot, position + slot.position());
    }
    lastWrittenSlot = position;
    counter = next;
    consumed = newConsumed;
    deferredConsumed = Math.max(deferredConsumed, newConsumed);
    floor = newFloor;
    unsynced = true;
  }

  @Override
  public synchronized void close() throws IOException {
    channel.close();
  }
}
