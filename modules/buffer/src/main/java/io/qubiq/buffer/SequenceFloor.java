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
 * A second, independent record of how far sequences have gone, so that losing or damaging any one
 * file (the ack watermark, the newest segment) never lets a sequence number be issued twice.
 *
 * <p><b>Layout.</b> File {@code seq.floor}: two 32-byte slots at offsets 0 and 4096, written
 * alternately, little-endian:
 *
 * <pre>
 *  0 8 floor: every sequence issued so far, and every one the newest segment can hold, is below it
 *  8 8 newest base: the base sequence of the newest segment when this was written
 * 16 8 counter: incremented by every write; the valid slot with the higher one wins
 * 24 4 CRC32C of bytes 0..24
 * 28 4 zero
 * </pre>
 *
 * <p><b>When written.</b> At every segment roll, after the new segment got its name and before its
 * first record: the floor becomes the new base plus the most records that segment can hold. With a durability mode other
 * than NONE the write is fsynced first, so after power loss the floor is still above every
 * sequence the lost segment could have issued. A torn write damages one slot; the other keeps the
 * previous floor (still above every sequence issued before that roll).
 *
 * <p><b>Threading.</b> Written under the buffer's append lock; read once on open.
 */
final class SequenceFloor implements AutoCloseable {
  static final String FILE_NAME = "seq.floor";
  private static final int SLOT_BYTES = 32;
  private static final int SECOND_SLOT = 4096;

  private final FileChannel channel;
  private final boolean durable;
  private long floor;
  private long newestBase;
  private long counter;

  private SequenceFloor(FileChannel channel, boolean durable, long floor, long newestBase,
      long counter) {
    this.channel = channel;
    this.durable = durable;
    this.floor = floor;
    this.newestBase = newestBase;
    this.counter = counter;
  }

  static SequenceFloor open(Path dir, FileOps channels, boolean durable)
      throws IOException {
    FileChannel channel = channels.open(dir.resolve(FILE_NAME), EnumSet.of(
        StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE));
    try {
      long[] best = {1, 0, 0};
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
          found = true;
        }
      }
      return new SequenceFloor(channel, durable, best[0], best[1], best[2]);
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
  }

  /** Every sequence issued before this file was last written is below this (1 when none). */
  synchronized long floor() {
    return floor;
  }

  /** The newest segment's base when this file was last written; 0 when never written. */
  synchronized long newestBase() {
    return newestBase;
  }

  /**
   * Records a roll to a segment based at {@code base} that can hold {@code capacity} records;
   * fsynced unless durability is NONE. On failure nothing changed and the roll must not go on.
   */
  synchronized void roll(long base, long capacity) throws IOException {
    write(Math.max(floor, base + capacity), base);
  }

  /**
   * After recovery: records the floor the buffer opened with and the newest live segment holding
   * records (0 when none), so a segment recovery found empty and later deleted is not mistaken
   * for a missing one.
   */
  synchronized void opened(long next, long newestLiveBase) throws IOException {
    write(Math.max(floor, next), newestLiveBase);
  }

  /** Raises the floor (without a roll), fsynced unless durability is NONE. */
  synchronized void raise(long newFloor) throws IOException {
    if (newFloor > floor) {
      write(newFloor, newestBase);
    }
  }

  private void write(long newFloor, long base) throws IOException {
    long next = counter + 1;
    ByteBuffer slot = ByteBuffer.allocate(SLOT_BYTES).order(ByteOrder.LITTLE_ENDIAN);
    slot.putLong(0, newFloor).putLong(8, base).putLong(16, next);
    CRC32C crc = new CRC32C();
    crc.update(slot.array(), 0, 24);
    slot.putInt(24, (int) crc.getValue());
    long position = (next & 1) == 0 ? 0 : SECOND_SLOT;
    while (slot.hasRemaining()) {
      channel.write(slot, position + slot.position());
    }
    if (durable) {
      channel.force(false);
    }
    counter = next;
    floor = newFloor;
    newestBase = base;
  }

  @Override
  public synchronized void close() throws IOException {
    channel.close();
  }
}
