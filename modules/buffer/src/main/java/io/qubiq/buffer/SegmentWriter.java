package io.qubiq.buffer;

import io.qubiq.fileops.FileOps;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.zip.CRC32C;

/**
 * Appends record frames to the newest segment and rolls to a pre-allocated one when it is full.
 *
 * <p><b>Roll.</b> The prepared file gets its identity header (through its channel) and is renamed
 * to its base sequence (the directory is fsynced unless durability is NONE); then the sequence
 * floor file is raised above every sequence the new segment can hold and names it the newest
 * (fsynced unless durability is NONE), so before the segment's first record; then it joins the
 * chain, and only then does the old segment get its seal. A crash between any two steps leaves
 * either a {@code .tmp} file without records (deleted on open) or a valid, empty segment, and the
 * floor file never names a segment that was not renamed into place (it did, before: a kill
 * between the floor and the rename read on open as a lost newest segment, a false loss report).
 *
 * <p><b>Threading.</b> Not thread-safe: every method is called under the buffer's append lock.
 */
final class SegmentWriter {
  private final Path dir;
  private final FileOps files;
  private final SegmentPreparer preparer;
  private final SegmentChain chain;
  private final SequenceFloor floor;
  private final boolean syncDirectory;
  private final CRC32C crc = new CRC32C();
  private final ByteBuffer scratch = RecordFormat.newScratch();
  private Segment current;
  private ByteBuffer view;
  private int position;
  private int capacity;
  private long nextSequence;
  private final long previousLast;
  private boolean rollBeforeNext;

  SegmentWriter(Path dir, FileOps files, SegmentPreparer preparer, SegmentChain chain, SequenceFloor floor,
      long nextSequence, long previousLast, boolean syncDirectory) {
    this.dir = dir;
    this.files = files;
    this.preparer = preparer;
    this.chain = chain;
    this.floor = floor;
    this.nextSequence = nextSequence;
    this.previousLast = previousLast;
    this.syncDirectory = syncDirectory;
  }

  /** The sequence the next record will get. */
  long nextSequence() {
    return nextSequence;
  }

  /**
   * Makes the next record's sequence at least {@code next}. A segment's sequences are contiguous,
   * so a jump starts a new segment (whose previous link still names the last record before it).
   */
  void skipTo(long next) {
    if (next > nextSequence) {
      nextSequence = next;
      rollBeforeNext = current != null;
    }
  }

  /**
   * Appends one record and publishes it.
   *
   * @throws IOException the next segment could not be prepared or activated; nothing was written
   *     and no sequence was used
   */
  long append(byte[] payload, long nowMillis) throws IOException {
    int frame = RecordFormat.frameBytes(payload.length);
    if (current == null || rollBeforeNext || position + frame > capacity) {
      roll(nowMillis);
      rollBeforeNext = false;
    }
    long sequence = nextSequence;
    RecordFormat.write(view, position, sequence, nowMillis, payload, scratch, crc);
    position += frame;
    nextSequence = sequence + 1;
    current.publish(position, sequence);
    return sequence;
  }

  private void roll(long nowMillis) throws IOException {
    SegmentPreparer.Prepared prepared = preparer.take();
    long base = nextSequence;
    long link = current == null ? previousLast : current.chainEnd();
    Path target = dir.resolve(Segment.fileName(base));
    Segment next;
    try {
      int bytes = prepared.mapping().capacity();
      ByteBuffer identity = SegmentHeader.encodeIdentity(bytes, base, link, nowMillis);
      while (identity.hasRemaining()) {
        prepared.channel().write(identity, identity.position());
      }
      files.move(prepared.file(), target);
      if (syncDirectory) {
        files.syncDirectory(dir);
      }
      // after the rename: the floor file also names the newest segment, and one it names but
      // that is not there reads on open as a lost segment full of records
      floor.roll(base, (bytes - SegmentHeader.BYTES) / RecordFormat.frameBytes(1));
      next = Segment.writable(target, files, prepared.channel(), prepared.mapping(), base, link);
    } catch (IOException | RuntimeException e) {
      prepared.discard();
      files.deleteIfExists(target);
      throw e;
    }
    chain.add(next);
    if (current != null) {
      current.seal(false);
    }
    current = next;
    view = next.writeView();
    capacity = view.capacity();
    position = SegmentHeader.BYTES;
  }

  /** Seals the newest segment; called on close after everything was fsynced. */
  void sealOnClose(boolean synced) {
    if (current != null) {
      current.seal(synced);
    }
  }
}
