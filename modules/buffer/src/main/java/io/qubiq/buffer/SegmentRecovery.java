package io.qubiq.buffer;

import io.qubiq.fileops.FileOps;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

/**
 * Rebuilds the live segment chain from the files on open. Never throws for bad data: what cannot
 * be trusted is cut off or set aside and described in a {@link RecoveryReport.Finding}.
 *
 * <p><b>Per segment</b>, in base order: a header that fails its checks sets the file aside
 * (CORRUPT_HEADER). A seal is trusted without a scan when the previous owner shut down cleanly
 * (and the segment existed then) or the seal says its records were fsynced first. Otherwise the records are validated from the
 * first one (length bounds, expected sequence, CRC32C), stopping at the seal's end if a valid seal
 * exists; the first record that fails ends the segment's data. What follows is counted as
 * discarded: a TORN_TAIL when it is the end of the newest segment (an interrupted append), else a
 * CORRUPT_RECORD, in which case a copy of the file goes to {@code corrupt/} first. The scanned
 * segment is then sealed at its valid end, so the next open need not scan it again.
 *
 * <p><b>Chain</b>: each segment's previous link must equal the chain end of the segment before
 * it. A mismatch means records in between are missing (CHAIN_GAP): that segment and every later
 * one are moved to {@code corrupt/}, so the live buffer stays one ordered run and nothing is ever
 * replayed out of order. A first segment whose link is above the consume watermark means records
 * before it are missing; that gap is reported and the segment kept. The sequence floor returned
 * covers every sequence seen, set-aside files included, so sequences are never reused; it is
 * above every segment's base, so a new segment never takes the name of an existing file (an
 * empty newest segment, left by a crash inside a roll, costs one unused sequence number).
 *
 * <p><b>Threading.</b> Runs once, on the opening thread, before the buffer is shared.
 */
final class SegmentRecovery {
  private static final int FIRST_RECORD = SegmentHeader.BYTES;

  /** What recovery rebuilt. */
  record Result(List<Segment> segments, List<RecoveryReport.Finding> findings, int trusted,
      int scanned, long bytesDiscarded, long sequenceFloor) {

    /** This result with one more finding (one the buffer made beside the segments). */
    Result with(RecoveryReport.Finding finding) {
      List<RecoveryReport.Finding> all = new ArrayList<>(findings);
      all.add(finding);
      return new Result(segments, all, trusted, scanned, bytesDiscarded, sequenceFloor);
    }
  }

  private record Scan(int end, long lastSequence, long discardedBytes, boolean tornOnly,
      List<Hole> holes) {}

  /** Damage inside a segment with a valid record after it: becomes a hole frame. */
  private record Hole(int offset, int span, long first, long next) {}

  /** The smallest frame: header and one payload byte, padded. */
  private static final int MIN_FRAME = RecordFormat.frameBytes(1);

  private final Path dir;
  private final FileOps channels;
  private final long trustedBelow;
  private final long consumed;
  private final boolean consumedKnown;
  private final long newestBase;
  private final CorruptFolder corrupt;
  private final List<Segment> live = new ArrayList<>();
  private final List<RecoveryReport.Finding> findings = new ArrayList<>();
  private int trusted;
  private int scanned;
  private long bytesDiscarded;
  private long floor = 1;

  private SegmentRecovery(Path dir, FileOps channels, long trustedBelow,
      long consumed, boolean consumedKnown, long newestBase, CorruptFolder corrupt) {
    this.dir = dir;
    this.channels = channels;
    this.trustedBelow = trustedBelow;
    this.consumed = consumed;
    this.consumedKnown = consumedKnown;
    this.newestBase = newestBase;
    this.corrupt = corrupt;
  }

  /**
   * @param trustedBelow seals of segments with a base below this are trusted (the next sequence
   *     recorded by a clean shutdown; 0 when there was none)
   * @param consumed the ack watermark's consumed sequence
   * @param consumedKnown the watermark was read from a valid slot; otherwise records missing
   *     before the oldest segment may simply have been acknowledged and are not reported lost
   * @param newestBase the newest segment's base per the sequence floor file (0: unknown); when
   *     no segment from there on is found and it held unacknowledged records, they are lost
   */
  static Result run(Path dir, FileOps channels, long trustedBelow, long consumed,
      boolean consumedKnown, long newestBase, CorruptFolder corrupt) throws IOException {
    SegmentRecovery recovery = new SegmentRecovery(dir, channels, trustedBelow, consumed,
        consumedKnown, newestBase, corrupt);
    try {
      recovery.recoverAll();
    } catch (IOException | RuntimeException e) {
      recovery.live.forEach(Segment::release);
      throw e;
    }
    return new Result(List.copyOf(recovery.live), recovery.findings, recovery.trusted,
        recovery.scanned, recovery.bytesDiscarded, recovery.floor);
  }

  private void recoverAll() throws IOException {
    List<Path> files;
    try (Stream<Path> listing = Files.list(dir)) {
      files = listing.filter(f -> Segment.parseBase(f).isPresent())
          .sorted(Comparator.comparing(f -> Segment.parseBase(f).orElseThrow()))
          .toList();
    }
    boolean broken = false;
    for (int i = 0; i < files.size(); i++) {
      Path file = files.get(i);
      long base = Segment.parseBase(file).orElseThrow();
      long size = Files.size(file);
      // above the base even of an empty segment: the next owner's first segment must never get
      // the name of a file still in the chain (trimming that one would delete the new one)
      floor = Math.max(floor, base + 1);
      if (broken) {
        setAside(file, RecoveryReport.Reason.CHAIN_GAP, FIRST_RECORD, size, size, base,
            "follows a gap in the segment chain; set aside so records are never replayed out of"
                + " order");
        continue;
      }
      Optional<Segment> segment = recoverOne(file, base, size, i == files.size() - 1);
      if (segment.isEmpty()) {
        continue;
      }
      Segment s = segment.get();
      if (!live.isEmpty() && s.previousLast() != live.get(live.size() - 1).chainEnd()) {
        Segment previous = live.get(live.size() - 1);
        long expected = previous.chainEnd();
        if (s.previousLast() < expected || s.base() <= previous.lastSequence()) {
          // overlapping sequences: replaying both would deliver records out of order or twice
          s.release();
          setAside(file, RecoveryReport.Reason.CHAIN_GAP, FIRST_RECORD, size, s.dataEnd(), base,
              "its records overlap the segment before it (link " + s.previousLast()
                  + ", expected " + expected + "); this and every later segment set aside");
          broken = true;
          continue;
        }
        long firstLost = Math.max(expected + 1, consumed + 1);
        findings.add(new RecoveryReport.Finding(RecoveryReport.Reason.CHAIN_GAP, file, 0, 0,
            Optional.empty(), "records " + (expected + 1) + ".." + s.previousLast()
                + " between " + previous.path().getFileName() + " and this segment are missing;"
                + " reading goes on after them", firstLost, s.previousLast()));
        previous.keepChainLink(s.previousLast());
        previous.seal(false); // the link is kept on disk, so the next open does not report it again
      }
      if (live.isEmpty() && s.previousLast() > consumed) {
        boolean lost = consumedKnown;
        findings.add(new RecoveryReport.Finding(RecoveryReport.Reason.CHAIN_GAP, file, 0, 0,
            Optional.empty(), "records " + (consumed + 1) + ".." + s.previousLast()
                + " before the oldest segment are missing; replay starts at " + base
                + (lost ? "" : " (the ack watermark was unreadable, so they may simply have"
                    + " been acknowledged)"),
            lost ? consumed + 1 : 1, lost ? s.previousLast() : 0));
      }
      floor = Math.max(floor, s.lastSequence() + 1);
      live.add(s);
    }
    boolean newestFound = files.stream()
        .anyMatch(f -> Segment.parseBase(f).orElse(0L) >= newestBase);
    if (newestBase > 0 && !newestFound && consumedKnown && newestBase > consumed) {
      long from = Math.max(consumed + 1, live.isEmpty() ? newestBase
          : live.get(live.size() - 1).chainEnd() + 1);
      findings.add(new RecoveryReport.Finding(RecoveryReport.Reason.MISSING_SEGMENT,
          dir.resolve(Segment.fileName(newestBase)), 0, 0, Optional.empty(),
          "the newest segment " + Segment.fileName(newestBase) + " is missing: records from "
              + from + " on (how many is unknown) are lost; new records continue above the"
              + " sequence floor", from, from - 1));
    }
  }

  private Optional<Segment> recoverOne(Path file, long base, long size, boolean newest)
      throws IOException {
    FileChannel channel = channels.open(file,
        EnumSet.of(StandardOpenOption.READ, StandardOpenOption.WRITE));
    try {
      ByteBuffer raw = ByteBuffer.allocate(SegmentHeader.BYTES);
      while (raw.hasRemaining() && channel.read(raw, raw.position()) > 0) {
        // keep reading
      }
      raw.flip();
      Optional<SegmentHeader> header = SegmentHeader.decode(raw);
      if (header.isEmpty() || header.get().baseSequence() != base) {
        channel.close();
        setAside(file, RecoveryReport.Reason.CORRUPT_HEADER, 0, size, size, base,
            "segment header is unreadable (bad magic, version or CRC32C, or a base sequence that"
                + " does not match the file name)");
        return Optional.empty();
      }
      SegmentHeader h = header.get();
      int mapped = (int) Math.min(size, h.segmentBytes());
      Optional<SegmentHeader.Seal> seal = h.seal().filter(x -> x.dataEnd() <= mapped);
      if (seal.isPresent() && (base < trustedBelow || seal.get().synced())) {
        trusted++;
        Segment s = Segment.recovered(file, channels, channel, base, h.previousLast(), mapped,
            seal.get().dataEnd(), seal.get().lastSequence(), seal.get().synced());
        s.keepChainLink(seal.get().chainLink());
        return Optional.of(s);
      }
      scanned++;
      int limit = seal.map(SegmentHeader.Seal::dataEnd).orElse(mapped);
      Scan scan = scan(channel, mapped, limit, base);
      if (!scan.holes().isEmpty()) {
        Optional<Path> copy = corrupt.copyAside(file, scan.holes().size() + " damaged place(s)"
            + " found on open, each stepped over up to the next valid record: " + scan.holes()
            .stream().map(x -> "records " + x.first() + ".." + (x.next() - 1) + " at offset "
                + x.offset() + " (" + x.span() + " bytes)").toList()
            + ". The live file has a hole frame at each place.");
        for (Hole hole : scan.holes()) {
          ByteBuffer frame = RecordFormat.hole(hole.span(), hole.first(), hole.next());
          while (frame.hasRemaining()) {
            channel.write(frame, hole.offset() + frame.position());
          }
          long firstLost = Math.max(hole.first(), consumed + 1);
          bytesDiscarded += hole.span();
          findings.add(new RecoveryReport.Finding(RecoveryReport.Reason.CORRUPT_RECORD, file,
              hole.offset(), hole.span(), copy, "damaged record " + hole.first() + " at offset "
                  + hole.offset() + ": " + hole.span() + " bytes stepped over up to record "
                  + hole.next() + (firstLost > hole.next() - 1 ? " (all acknowledged: nothing lost)"
                  : "; records " + firstLost + ".." + (hole.next() - 1) + " lost"),
              firstLost, hole.next() - 1));
        }
      }
      Segment s = Segment.recovered(file, channels, channel, base, h.previousLast(), mapped, scan.end(),
          scan.lastSequence(), false);
      if (seal.isPresent()) {
        s.keepChainLink(seal.get().chainLink());
      }
      if (seal.isEmpty() || scan.end() != seal.get().dataEnd()) {
        s.seal(false);
      }
      if (scan.discardedBytes() > 0) {
        bytesDiscarded += scan.discardedBytes();
        boolean torn = newest && scan.tornOnly();
        Optional<Path> copy = torn ? Optional.empty() : corrupt.copyAside(file,
            "record " + (scan.lastSequence() + 1) + " at offset " + scan.end() + " failed its"
                + " length, sequence or CRC32C check; " + scan.discardedBytes() + " bytes after"
                + " it were discarded on open. The live segment keeps the records before it.");
        // a torn tail was never acknowledged to its producer; a cut before a seal loses what the
        // seal counted; a cut without one is counted by the chain gap the next segment shows
        long firstLost = Math.max(scan.lastSequence() + 1, consumed + 1);
        long lastLost = torn || seal.isEmpty() ? firstLost - 1 : seal.get().lastSequence();
        findings.add(new RecoveryReport.Finding(
            torn ? RecoveryReport.Reason.TORN_TAIL : RecoveryReport.Reason.CORRUPT_RECORD,
            file, scan.end(), scan.discardedBytes(), copy,
            (torn ? "interrupted append" : "damaged record") + " after sequence "
                + scan.lastSequence() + "; " + scan.discardedBytes() + " bytes discarded"
                + (lastLost >= firstLost ? ", records " + firstLost + ".." + lastLost + " lost" : ""),
            firstLost, lastLost));
      }
      return Optional.of(s);
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
  }

  /**
   * Validates records from the first one. Holes written earlier are stepped over; a record that
   * fails with a valid record after it becomes a new hole; the first failure with nothing valid
   * after it ends the segment's data.
   */
  private static Scan scan(FileChannel channel, int mapped, int limit, long base)
      throws IOException {
    MappedByteBuffer mapping = channel.map(FileChannel.MapMode.READ_ONLY, 0, mapped);
    try {
      ByteBuffer view = mapping.duplicate().order(ByteOrder.LITTLE_ENDIAN);
      CRC32C crc = new CRC32C();
      List<Hole> holes = new ArrayList<>();
      int offset = FIRST_RECORD;
      long sequence = base;
      while (true) {
        if (RecordFormat.isValid(view, offset, limit, sequence, crc)) {
          offset += RecordFormat.frameBytes(RecordFormat.length(view, offset));
          sequence++;
          continue;
        }
        if (RecordFormat.isHole(view, offset, limit, crc)
            && RecordFormat.holeFirst(view, offset) == sequence) {
          sequence = RecordFormat.holeNext(view, offset);
          offset += RecordFormat.holeSpan(view, offset);
          continue;
        }
        int lastNonZero = lastNonZero(view, Math.min(offset, limit), limit);
        if (lastNonZero < 0) {
          break;
        }
        int searchEnd = Math.min(limit, (lastNonZero + RecordFormat.ALIGNMENT) & -RecordFormat.ALIGNMENT);
        int resumeAt = RecordFormat.resync(view, offset, searchEnd, sequence,
            sequence + (searchEnd - offset) / MIN_FRAME, crc);
        if (resumeAt < 0) {
          break;
        }
        long resume = RecordFormat.sequence(view, resumeAt);
        holes.add(new Hole(offset, resumeAt - offset, sequence, resume));
        offset = resumeAt;
        sequence = resume;
      }
      int lastNonZero = lastNonZero(view, Math.min(offset, limit), limit);
      long discarded = lastNonZero < 0 ? 0 : lastNonZero + 1L - offset;
      boolean tornOnly = true;
      if (discarded > 0 && offset + RecordFormat.HEADER_BYTES <= limit) {
        int length = RecordFormat.length(view, offset);
        if (length > 0 && length <= limit - offset - RecordFormat.HEADER_BYTES) {
          tornOnly = lastNonZero < offset + RecordFormat.frameBytes(length);
        }
      }
      return new Scan(offset, sequence - 1, discarded, tornOnly, holes);
    } finally {
      Unmapper.unmap(mapping);
    }
  }

  private static int lastNonZero(ByteBuffer view, int from, int to) {
    int i = to;
    while (i - 8 >= from && view.getLong(i - 8) == 0) {
      i -= 8;
    }
    while (i > from) {
      if (view.get(i - 1) != 0) {
        return i - 1;
      }
      i--;
    }
    return -1;
  }

  private void setAside(Path file, RecoveryReport.Reason reason, long offset, long size,
      long dataEnd, long base, String detail) {
    floor = Math.max(floor, base + Math.max(0, size - FIRST_RECORD) / RecordFormat.HEADER_BYTES
        + 1);
    long discarded = Math.max(0, dataEnd - offset);
    bytesDiscarded += discarded;
    Optional<Path> moved = corrupt.moveAside(file, reason + ": " + detail
        + ". Sequences from " + base + " on may be in this file.");
    findings.add(new RecoveryReport.Finding(reason, file, offset, discarded, moved, detail));
  }
}
