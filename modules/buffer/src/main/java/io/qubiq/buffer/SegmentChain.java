package io.qubiq.buffer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import java.util.zip.CRC32C;

/**
 * The ordered list of live segments and the head: what the reader peeks, what acknowledgements
 * and DROP_OLDEST consume, and what trimming deletes.
 *
 * <p><b>Invariants.</b> Segments are in base order; only the last one may be taking appends. The
 * head cursor (segment index, offset, sequence) points at the oldest unconsumed record, or at the
 * end of the data. Every sequence at or below {@code consumed} is acknowledged or dropped. A
 * segment is deleted only when every record in it is consumed, it is not the writer's, and the
 * watermark covering it has been fsynced.
 *
 * <p><b>Threading.</b> Every method takes the chain lock, which the writer takes only to add a
 * segment and DROP_OLDEST takes under the append lock (lock order: append lock, then chain lock).
 * Records are read only below a published end, so the reader never sees a half-written frame.
 */
final class SegmentChain {
  private static final int FIRST_RECORD = SegmentHeader.BYTES;

  private final ReentrantLock lock = new ReentrantLock();
  private final List<Segment> segments = new ArrayList<>();
  private final AckWatermark watermark;
  private final Occupancy occupancy;
  private final CorruptFolder corrupt;
  private final CRC32C crc = new CRC32C();
  private int headIndex;
  private int headOffset = FIRST_RECORD;
  private long headSequence;
  private long consumed;
  private long dropped;
  private long discarded;
  private long trimFailures;
  /**
   * Where the last read stopped: the frame boundary after the last record it returned. A peek
   * after that record (the forwarder's read-ahead, after the batch in hand) starts there instead
   * of stepping over every frame from the head again, which on a large backlog costs a cache miss
   * per record. Used only while its segment is in the chain and the head has not passed it;
   * forgotten when a damaged tail is cut and when the chain is released.
   */
  private Boundary lastReadEnd;

  /** The record {@code sequence} (or the end of the data) is at {@code offset} of {@code segment}. */
  private record Boundary(Segment segment, int offset, long sequence) {
  }

  SegmentChain(List<Segment> recovered, AckWatermark watermark, Occupancy occupancy,
      CorruptFolder corrupt) throws IOException {
    this.watermark = watermark;
    this.occupancy = occupancy;
    this.corrupt = corrupt;
    this.consumed = watermark.consumed();
    segments.addAll(recovered);
    positionHead();
  }

  private void positionHead() throws IOException {
    headIndex = segments.size();
    for (int i = 0; i < segments.size(); i++) {
      Segment s = segments.get(i);
      if (!s.isEmpty() && s.lastSequence() > consumed) {
        headIndex = i;
        break;
      }
    }
    if (headIndex == segments.size()) {
      headIndex = Math.max(0, segments.size() - 1);
      headOffset = segments.isEmpty() ? FIRST_RECORD : segments.get(headIndex).dataEnd();
      headSequence = segments.isEmpty() ? consumed + 1 : segments.get(headIndex).lastSequence() + 1;
      return;
    }
    Segment head = segments.get(headIndex);
    ByteBuffer view = head.chainView();
    int offset = FIRST_RECORD;
    long sequence = head.base();
    while (sequence <= consumed) {
      offset += RecordFormat.frameBytes(RecordFormat.length(view, offset));
      sequence++;
    }
    headOffset = offset;
    headSequence = sequence;
    long bytes = head.dataEnd() - offset;
    long records = head.lastSequence() - sequence + 1;
    for (int i = headIndex + 1; i < segments.size(); i++) {
      Segment s = segments.get(i);
      bytes += s.dataEnd() - FIRST_RECORD;
      records += Math.max(0, s.records());
    }
    occupancy.added(bytes, records);
  }

  /** Appends the writer's new segment. */
  void add(Segment segment) {
    lock.lock();
    try {
      segments.add(segment);
      if (segments.size() == 1) {
        headIndex = 0;
        headOffset = FIRST_RECORD;
        headSequence = segment.base();
      }
    } finally {
      lock.unlock();
    }
  }

  /** Moves the head past exhausted segments; true when a record is at the head. */
  private boolean settle() {
    while (headIndex < segments.size()) {
      Segment s = segments.get(headIndex);
      if (headOffset < s.dataEnd()) {
        return true;
      }
      if (headIndex + 1 >= segments.size()) {
        return false;
      }
      headIndex++;
      headOffset = FIRST_RECORD;
      headSequence = segments.get(headIndex).base();
    }
    return false;
  }

  List<BufferedRecord> peek(int maxRecords, long maxBytes) throws BufferException {
    return peekAfter(Long.MIN_VALUE, maxRecords, maxBytes);
  }

  /**
   * The records after sequence {@code after} (from the head when {@code after} is below it). The
   * records between the head and {@code after} are stepped over by their lengths, not read again;
   * when one of them does not frame (damage the head's own peek will deal with) nothing is returned.
   */
  List<BufferedRecord> peekAfter(long after, int maxRecords, long maxBytes) throws BufferException {
    if (maxRecords <= 0 || maxBytes <= 0) {
      throw new IllegalArgumentException("maxRecords and maxBytes must be positive");
    }
    lock.lock();
    try {
      if (!settle()) {
        return new ArrayList<>(0);
      }
      Boundary known = lastReadEnd;
      if (known != null && known.sequence() == after + 1 && known.sequence() >= headSequence) {
        int at = segments.indexOf(known.segment());
        if (at >= headIndex) {
          return readFrom(at, known.offset(), known.sequence(), maxRecords, maxBytes);
        }
      }
      int index = headIndex;
      int offset = headOffset;
      long sequence = headSequence;
      // the segment, its end and its view are loaded once per segment, not per record (chainView
      // synchronizes; the end may grow meanwhile, and records published later are for the next peek)
      int loaded = -1;
      int end = 0;
      ByteBuffer view = null;
      while (sequence <= after && index < segments.size()) {
        if (loaded != index) {
          loaded = index;
          end = segments.get(index).dataEnd();
          view = null;
        }
        if (offset >= end) {
          if (++index < segments.size()) {
            offset = FIRST_RECORD;
            sequence = segments.get(index).base();
          }
          continue;
        }
        if (view == null) {
          view = segments.get(index).chainView();
        }
        int length = RecordFormat.length(view, offset);
        int frame = RecordFormat.frameBytes(length);
        if (length <= 0 || offset + frame > end) {
          return new ArrayList<>(0);
        }
        offset += frame;
        sequence++;
      }
      return readFrom(index, offset, sequence, maxRecords, maxBytes);
    } catch (IOException e) {
      throw new BufferIOException("reading the buffer failed", e);
    } finally {
      lock.unlock();
    }
  }

  /** Under the lock: up to {@code maxRecords} records from the given position, checksums checked. */
  private List<BufferedRecord> readFrom(int index, int offset, long sequence, int maxRecords, long maxBytes)
      throws IOException, BufferCorruptException {
    List<BufferedRecord> batch = new ArrayList<>(Math.min(maxRecords, 1024));
    long bytes = 0;
    // loaded once per segment as in peekAfter; again after a damaged tail was cut
    int loaded = -1;
    Segment s = null;
    int end = 0;
    ByteBuffer view = null;
    while (batch.size() < maxRecords && index < segments.size()) {
      if (loaded != index) {
        loaded = index;
        s = segments.get(index);
        end = s.dataEnd();
        view = null;
      }
      if (offset >= end) {
        if (++index < segments.size()) {
          offset = FIRST_RECORD;
          sequence = segments.get(index).base();
        }
        continue;
      }
      if (view == null) {
        view = s.chainView();
      }
      if (!RecordFormat.isValid(view, offset, end, sequence, crc)) {
        discardDamagedTail(s, index, offset, sequence);
        loaded = -1;
        continue;
      }
      int length = RecordFormat.length(view, offset);
      if (!batch.isEmpty() && bytes + length > maxBytes) {
        break;
      }
      byte[] payload = new byte[length];
      view.get(offset + RecordFormat.PAYLOAD_OFFSET, payload);
      batch.add(new BufferedRecord(sequence, RecordFormat.appendTime(view, offset), payload));
      bytes += length;
      offset += RecordFormat.frameBytes(length);
      sequence++;
    }
    lastReadEnd = index < segments.size() ? new Boundary(segments.get(index), offset, sequence) : null;
    return batch;
  }

  /**
   * A record that failed its checksum on read (the disk or memory changed after recovery). A
   * sealed segment is cut there: a copy goes to corrupt/ with a note, the rest is counted as
   * discarded and reading continues with the next segment. Damage in the segment being written
   * cannot be set aside safely and is raised.
   */
  private void discardDamagedTail(Segment s, int index, int offset, long sequence)
      throws BufferCorruptException {
    if (index == segments.size() - 1 && !s.sealed()) {
      throw new BufferCorruptException(s.path(), offset,
          "record " + sequence + " in the segment being written failed its checksum");
    }
    long records = Math.max(0, s.lastSequence() - sequence + 1);
    long bytes = s.dataEnd() - offset;
    corrupt.copyAside(s.path(), "record " + sequence + " at offset " + offset
        + " failed its CRC32C check on read; " + records + " records (" + bytes
        + " bytes) from there to the end of the segment were discarded");
    s.cutAt(offset, sequence - 1);
    lastReadEnd = null;
    occupancy.removed(bytes, records);
    discarded += records;
  }

  /** Consumes through {@code sequence} after writing the watermark; then trims. */
  void acknowledge(long sequence) throws BufferException {
    lock.lock();
    try {
      if (sequence <= consumed) {
        return;
      }
      try {
        watermark.write(sequence);
      } catch (IOException e) {
        throw new BufferIOException("writing the ack watermark failed; the head did not move", e);
      }
      consumeThrough(sequence);
      consumed = sequence;
      trim();
    } finally {
      lock.unlock();
    }
  }

  /**
   * DROP_OLDEST: consumes records from the head until {@code needed} more bytes fit. The watermark
   * is written lazily (before any trim); a crash may resurrect dropped records, never lose others.
   *
   * @return the number of records dropped
   */
  long dropUntilFits(long needed) {
    lock.lock();
    try {
      long count = 0;
      while (!occupancy.fits(needed) && settle()) {
        count += consumeThrough(headSequence);
      }
      consumed = Math.max(consumed, headSequence - 1);
      watermark.defer(consumed);
      dropped += count;
      trim();
      return count;
    } finally {
      lock.unlock();
    }
  }

  private long consumeThrough(long sequence) {
    long bytes = 0;
    long records = 0;
    while (headSequence <= sequence && settle()) {
      Segment s = segments.get(headIndex);
      ByteBuffer view;
      try {
        view = s.chainView();
      } catch (IOException e) {
        break;
      }
      int length = RecordFormat.length(view, headOffset);
      int frame = RecordFormat.frameBytes(length);
      if (length <= 0 || headOffset + frame > s.dataEnd()) {
        occupancy.removed(bytes, records);
        bytes = 0;
        records = 0;
        try {
          discardDamagedTail(s, headIndex, headOffset, headSequence);
        } catch (BufferCorruptException e) {
          break;
        }
        continue;
      }
      headOffset += frame;
      headSequence++;
      bytes += frame;
      records++;
    }
    headSequence = Math.max(headSequence, sequence + 1);
    occupancy.removed(bytes, records);
    return records;
  }

  /** Deletes leading segments that are wholly consumed, after fsyncing the watermark. */
  void trim() {
    lock.lock();
    try {
      settle();
      while (!segments.isEmpty()) {
        Segment s = segments.get(0);
        boolean writers = segments.size() == 1 && !s.sealed();
        boolean consumedAll = s.isEmpty() || s.lastSequence() <= consumed;
        if (writers || !consumedAll || (headIndex == 0 && headOffset < s.dataEnd())) {
          return;
        }
        try {
          watermark.sync();
          segments.remove(0);
          s.delete();
        } catch (IOException e) {
          trimFailures++;
          return;
        }
        if (headIndex > 0) {
          headIndex--;
        } else {
          headOffset = FIRST_RECORD;
          if (!segments.isEmpty()) {
            headSequence = segments.get(0).base();
          }
        }
      }
    } finally {
      lock.unlock();
    }
  }

  /** Append time of the head record, when there is one. */
  Optional<Instant> oldestAppendTime() {
    lock.lock();
    try {
      if (!settle()) {
        return Optional.empty();
      }
      return Optional.of(Instant.ofEpochMilli(
          RecordFormat.appendTime(segments.get(headIndex).chainView(), headOffset)));
    } catch (IOException e) {
      return Optional.empty();
    } finally {
      lock.unlock();
    }
  }

  /** Sequence of the head record; {@code orElse} when the chain holds none. */
  long headSequence(long orElse) {
    lock.lock();
    try {
      return settle() ? headSequence : orElse;
    } finally {
      lock.unlock();
    }
  }

  long dropped() {
    lock.lock();
    try {
      return dropped;
    } finally {
      lock.unlock();
    }
  }

  long discarded() {
    lock.lock();
    try {
      return discarded;
    } finally {
      lock.unlock();
    }
  }

  /** The segments now, for the sync path. */
  List<Segment> snapshot() {
    lock.lock();
    try {
      return List.copyOf(segments);
    } finally {
      lock.unlock();
    }
  }

  /** The chain end of the newest segment, or {@code orElse}. */
  long chainEnd(long orElse) {
    lock.lock();
    try {
      return segments.isEmpty() ? orElse : segments.get(segments.size() - 1).chainEnd();
    } finally {
      lock.unlock();
    }
  }

  /** Releases every mapping and channel (close or crash simulation). */
  void releaseAll() {
    lock.lock();
    try {
      segments.forEach(Segment::release);
      segments.clear();
      lastReadEnd = null;
    } finally {
      lock.unlock();
    }
  }
}
