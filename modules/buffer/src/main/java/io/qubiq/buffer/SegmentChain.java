package io.qubiq.buffer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
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
  /** The smallest frame: header and one payload byte, padded. */
  private static final int MIN_FRAME = RecordFormat.frameBytes(1);

  private final ReentrantLock lock = new ReentrantLock();
  private final List<Segment> segments = new ArrayList<>();
  private final AckWatermark watermark;
  private final Occupancy occupancy;
  private final CorruptFolder corrupt;
  private final WatermarkListener listener;
  private final List<RecoveryReport.Finding> openFindings = new ArrayList<>();
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
      CorruptFolder corrupt, WatermarkListener listener) throws IOException {
    this.watermark = watermark;
    this.occupancy = occupancy;
    this.corrupt = corrupt;
    this.listener = listener;
    this.consumed = watermark.consumed();
    segments.addAll(recovered);
    positionHead();
  }

  /** Damage the head's positioning stepped over while opening, for the recovery report. */
  List<RecoveryReport.Finding> openFindings() {
    return List.copyOf(openFindings);
  }

  /**
   * Finds the oldest unconsumed record. Every consumed record of the head segment is validated
   * on the way (a trusted seal was never scanned), so damage among them is stepped over instead
   * of derailing the walk.
   */
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
    int end = head.dataEnd();
    int offset = FIRST_RECORD;
    long sequence = head.base();
    while (sequence <= consumed && offset < end) {
      if (RecordFormat.isValid(view, offset, end, sequence, crc)) {
        offset += RecordFormat.frameBytes(RecordFormat.length(view, offset));
        sequence++;
      } else if (holeCovers(view, offset, end, sequence)) {
        long next = RecordFormat.holeNext(view, offset);
        if (next - 1 > consumed) {
          sequence = consumed + 1; // the head is inside the hole; stepping it consumes the rest
          break;
        }
        offset += RecordFormat.holeSpan(view, offset);
        sequence = next;
      } else {
        Boundary after = repair(head, view, offset, sequence, end, true);
        offset = after.offset();
        sequence = after.sequence();
      }
    }
    headOffset = offset;
    headSequence = sequence;
    long bytes = end - offset;
    long records = Math.max(0, head.lastSequence() - sequence + 1);
    for (int i = headIndex + 1; i < segments.size(); i++) {
      Segment s = segments.get(i);
      bytes += s.dataEnd() - FIRST_RECORD;
      records += Math.max(0, s.records());
    }
    occupancy.added(bytes, records);
  }

  /** True when a valid hole at {@code offset} stands for {@code sequence}. */
  private boolean holeCovers(ByteBuffer view, int offset, int end, long sequence) {
    return RecordFormat.isHole(view, offset, end, crc)
        && RecordFormat.holeFirst(view, offset) <= sequence
        && sequence < RecordFormat.holeNext(view, offset);
  }

  /**
   * Under the lock: the record {@code sequence} at {@code offset} of {@code s} is damaged (bad
   * length, checksum or sequence). Finds the next valid record of the segment, keeps a copy of
   * the file in corrupt/, writes a hole over the damage so no later walk meets it again, reports
   * what it cost, and returns where reading resumes. Never throws: when even the hole cannot be
   * written the damage is stepped over in memory and met again after a restart.
   */
  private Boundary repair(Segment s, ByteBuffer view, int offset, long sequence, int end,
      boolean atOpen) {
    long maxSequence = sequence + (end - offset) / MIN_FRAME;
    int resumeAt = RecordFormat.resync(view, offset, end, sequence, maxSequence, crc);
    long resume;
    if (resumeAt >= 0) {
      resume = RecordFormat.sequence(view, resumeAt);
    } else {
      resumeAt = end;
      resume = s.sealed() ? s.lastSequence() + 1 : nextAfterWriterEnd(s, view, end, sequence);
    }
    resume = Math.max(resume, sequence + 1);
    int span = resumeAt - offset;
    long firstLost = Math.max(sequence, consumed + 1);
    long lastLost = resume - 1;
    String what = firstLost > lastLost
        ? "only acknowledged records were in it, nothing was lost"
        : "records " + firstLost + ".." + lastLost + " were lost";
    Optional<Path> copy = corrupt.copyAside(s.path(), "record " + sequence + " at offset "
        + offset + " failed its length, sequence or CRC32C check on "
        + (atOpen ? "open" : "read") + "; " + span + " bytes up to the next valid record (" + resume
        + ") are stepped over: " + what + ". The live file now has a hole frame there.");
    boolean holeWritten = span >= RecordFormat.HEADER_BYTES
        && s.writeHole(offset, RecordFormat.hole(span, sequence, resume));
    String detail = "damaged record " + sequence + " in " + s.path().getFileName() + " at offset "
        + offset + ": " + span + " bytes stepped over, " + what
        + (holeWritten ? "" : " (the hole could not be written; a restart will meet it again)");
    lastReadEnd = null;
    discarded += Math.max(0, lastLost - firstLost + 1);
    if (atOpen) {
      openFindings.add(new RecoveryReport.Finding(RecoveryReport.Reason.CORRUPT_RECORD, s.path(),
          offset, span, copy, detail, firstLost, lastLost));
    } else {
      try {
        listener.onDamage(new BufferDamage(s.path(), offset, span, firstLost, lastLost, copy,
            detail));
      } catch (RuntimeException e) {
        // a listener's failure must not stop the reader; the damage is counted in stats anyway
      }
    }
    return new Boundary(s, resumeAt, resume);
  }

  /**
   * The sequence of the record at {@code end} of the segment being written, once there is one.
   * The writer publishes a record's last sequence before its end, so a last sequence read after
   * {@code end} either includes the record at {@code end} (whose bytes are then visible and
   * valid) or is the one just before it.
   */
  private long nextAfterWriterEnd(Segment s, ByteBuffer view, int end, long damaged) {
    long last = s.lastSequence();
    if (end + RecordFormat.HEADER_BYTES <= view.capacity()) {
      long atEnd = RecordFormat.sequence(view, end);
      if (atEnd > damaged && RecordFormat.isValid(view, end, view.capacity(), atEnd, crc)) {
        return atEnd;
      }
    }
    return last + 1;
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
        if (length > 0 && offset + frame <= end) {
          offset += frame;
          sequence++;
        } else if (holeCovers(view, offset, end, sequence)) {
          sequence = RecordFormat.holeNext(view, offset);
          offset += RecordFormat.holeSpan(view, offset);
        } else {
          Boundary resume = repair(segments.get(index), view, offset, sequence, end, false);
          offset = resume.offset();
          sequence = resume.sequence();
        }
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
      throws IOException {
    List<BufferedRecord> batch = new ArrayList<>(Math.min(maxRecords, 1024));
    long bytes = 0;
    // loaded once per segment as in peekAfter
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
        if (holeCovers(view, offset, end, sequence)) {
          sequence = RecordFormat.holeNext(view, offset);
          offset += RecordFormat.holeSpan(view, offset);
        } else {
          Boundary after = repair(s, view, offset, sequence, end, false);
          offset = after.offset();
          sequence = after.sequence();
        }
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
      int end = s.dataEnd();
      int length = RecordFormat.length(view, headOffset);
      int frame = RecordFormat.frameBytes(length);
      if (length > 0 && headOffset + frame <= end) {
        headOffset += frame;
        headSequence++;
        bytes += frame;
        records++;
        continue;
      }
      Boundary after = holeCovers(view, headOffset, end, headSequence)
          ? new Boundary(s, headOffset + RecordFormat.holeSpan(view, headOffset),
              RecordFormat.holeNext(view, headOffset))
          : repair(s, view, headOffset, headSequence, end, false);
      bytes += after.offset() - headOffset;
      records += after.sequence() - headSequence;
      headOffset = after.offset();
      headSequence = after.sequence();
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
