package io.qubiq.buffer;

import io.qubiq.fileops.FileOps;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Optional;

/**
 * One segment file in memory: its identity, its published extent, its mapping and its channel.
 * Layout: {@link SegmentHeader} then {@link RecordFormat} frames from offset 128.
 *
 * <p><b>Invariants.</b> Records in one segment have contiguous sequences starting at the base;
 * {@link #dataEnd()} and {@link #lastSequence()} only grow until {@link #sealed()}, after which the
 * segment is immutable (except when a read finds damage and {@link #cutAt} shortens it).
 *
 * <p><b>Threading.</b> The writer (under the buffer's append lock) writes records through {@link
 * #writeView()} and then publishes them with volatile stores; readers (under the chain lock) read
 * only below a {@link #dataEnd()} they loaded, through {@link #chainView()}. {@link #force}, {@link
 * #seal} and {@link #release} synchronize on the segment, so an fsync never races an unmap.
 *
 * <p><b>Memory.</b> A segment holds a mapping only while it is written or read: {@link #seal}
 * unmaps the writer's mapping when no reader has opened the segment yet (the writer never touches
 * a sealed segment's {@link #writeView()} again), and {@link #chainView()} maps it read-only when a
 * reader gets there. So a backlog of many segments costs disk and page cache, not resident memory
 * of the process (issue 20: a 1 GiB backlog had counted as 1.1 GiB of file-backed RSS).
 * Publishing uses release stores: on x86 a plain store that the record's bytes cannot pass.
 */
final class Segment {
  private static final VarHandle DATA_END;
  private static final VarHandle LAST_SEQUENCE;

  static {
    try {
      MethodHandles.Lookup lookup = MethodHandles.lookup();
      DATA_END = lookup.findVarHandle(Segment.class, "dataEnd", int.class);
      LAST_SEQUENCE = lookup.findVarHandle(Segment.class, "lastSequence", long.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final Path path;
  private final FileOps files;
  private final long base;
  private final long previousLast;
  private final int mappedBytes;
  private final FileChannel channel;
  private final ByteBuffer writeView;
  private MappedByteBuffer mapping;
  private ByteBuffer chainView;
  private volatile int dataEnd;
  private volatile long lastSequence;
  private volatile boolean sealed;
  private boolean sealSynced;
  private boolean headerDirty;
  private int syncedEnd;
  private boolean released;
  private volatile long chainLink = Long.MIN_VALUE;

  private Segment(Path path, FileOps files, FileChannel channel, MappedByteBuffer mapping, long base,
      long previousLast, int mappedBytes, int dataEnd, long lastSequence, boolean sealed,
      boolean sealSynced) {
    this.path = path;
    this.files = files;
    this.channel = channel;
    this.mapping = mapping;
    this.base = base;
    this.previousLast = previousLast;
    this.mappedBytes = mappedBytes;
    this.dataEnd = dataEnd;
    this.lastSequence = lastSequence;
    this.sealed = sealed;
    this.sealSynced = sealSynced;
    this.syncedEnd = sealSynced ? dataEnd : SegmentHeader.BYTES;
    this.writeView = sealed ? null : mapping.duplicate().order(ByteOrder.LITTLE_ENDIAN);
  }

  /** A new, empty segment taking appends, backed by a pre-allocated mapping. */
  static Segment writable(Path path, FileOps files, FileChannel channel, MappedByteBuffer mapping, long base,
      long previousLast) {
    return new Segment(path, files, channel, mapping, base, previousLast, mapping.capacity(),
        SegmentHeader.BYTES, base - 1, false, false);
  }

  /** A segment found on open, sealed at what recovery trusted; mapped on first read. */
  static Segment recovered(Path path, FileOps files, FileChannel channel, long base, long previousLast,
      int mappedBytes, int dataEnd, long lastSequence, boolean sealSynced) {
    return new Segment(path, files, channel, null, base, previousLast, mappedBytes, dataEnd,
        lastSequence, true, sealSynced);
  }

  static String fileName(long base) {
    return String.format("%020d.seg", base);
  }

  /** The base sequence encoded in a segment file name, if it is one. */
  static Optional<Long> parseBase(Path file) {
    String name = file.getFileName().toString();
    if (name.length() != 24 || !name.endsWith(".seg")) {
      return Optional.empty();
    }
    try {
      return Optional.of(Long.parseLong(name.substring(0, 20)));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  Path path() {
    return path;
  }

  long base() {
    return base;
  }

  long previousLast() {
    return previousLast;
  }

  int mappedBytes() {
    return mappedBytes;
  }

  int dataEnd() {
    return dataEnd;
  }

  long lastSequence() {
    return lastSequence;
  }

  boolean sealed() {
    return sealed;
  }

  boolean isEmpty() {
    return lastSequence < base;
  }

  long records() {
    return lastSequence - base + 1;
  }

  /**
   * The value the next segment's previous link must equal: the last sequence (the link before
   * this segment when empty), unchanged when a damaged tail was cut off on read.
   */
  long chainEnd() {
    long link = chainLink;
    return link != Long.MIN_VALUE ? link : isEmpty() ? previousLast : lastSequence;
  }

  /** Keeps the chain link recovery read from a trusted seal. */
  void keepChainLink(long link) {
    chainLink = link;
  }

  /** The writer's view; only the writer touches it. */
  ByteBuffer writeView() {
    return writeView;
  }

  /** Makes records up to {@code end} (last one {@code last}) visible to readers. */
  void publish(int end, long last) {
    LAST_SEQUENCE.setRelease(this, last);
    DATA_END.setRelease(this, end);
  }

  /** A view for holders of the chain lock, mapped on first use. */
  synchronized ByteBuffer chainView() throws IOException {
    if (chainView == null) {
      if (released) {
        throw new IOException("segment " + path + " is released");
      }
      if (mapping == null) {
        mapping = channel.map(FileChannel.MapMode.READ_ONLY, 0, mappedBytes);
      }
      chainView = mapping.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    }
    return chainView;
  }

  /**
   * Stops appends and records the extent in the header. The on-disk seal is an optimisation
   * (without it recovery scans), so a failed seal write leaves the segment sealed in memory and
   * returns false.
   */
  synchronized boolean seal(boolean recordsSynced) {
    sealed = true;
    boolean written = writeSeal(recordsSynced && syncedEnd == dataEnd);
    if (chainView == null && mapping != null) {
      // No reader has opened it yet: a backlog. Give its pages back to the kernel now (they stay
      // in the page cache and the file; fsync still writes them) instead of counting the whole
      // backlog in the process's resident size; a reader maps it again when it gets here.
      Unmapper.unmap(mapping);
      mapping = null;
    }
    return written;
  }

  /**
   * Shortens a sealed segment after a read found a damaged record at {@code end}; the seal is
   * rewritten so a reopen never trusts the damaged bytes.
   */
  synchronized void cutAt(int end, long last) {
    chainLink = chainEnd();
    dataEnd = end;
    lastSequence = last;
    writeSeal(false);
  }

  /**
   * Writes a hole frame over the start of damaged bytes at {@code offset}, through the channel
   * (a recovered segment's mapping is read-only; the page cache keeps both views alike). The
   * writer never writes below the published end, so this never races an append. False when the
   * write failed: the caller then steps over the damage in memory only.
   */
  synchronized boolean writeHole(int offset, ByteBuffer hole) {
    if (released) {
      return false;
    }
    try {
      while (hole.hasRemaining()) {
        channel.write(hole, offset + hole.position());
      }
      headerDirty = true;
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private boolean writeSeal(boolean synced) {
    if (released) {
      return false;
    }
    SegmentHeader.Seal seal = new SegmentHeader.Seal(lastSequence, dataEnd, synced, chainEnd());
    try {
      ByteBuffer block = SegmentHeader.encodeSeal(base, seal);
      while (block.hasRemaining()) {
        channel.write(block, SegmentHeader.SEAL_OFFSET + block.position());
      }
      sealSynced = synced;
      headerDirty = true;
      return true;
    } catch (IOException e) {
      sealSynced = false;
      return false;
    }
  }

  /** True when records or the seal are newer than the last fsync. */
  synchronized boolean needsSync() {
    return !released && (syncedEnd < dataEnd || headerDirty || (sealed && !sealSynced));
  }

  /**
   * Fsyncs the records published so far (the mapping's dirty pages go with the file) and any
   * header write. Once a sealed segment is wholly synced its seal is rewritten with the synced
   * flag (made durable by the next round), so a crash reopen can trust it without a scan.
   */
  synchronized void force() throws IOException {
    if (released || !needsSync()) {
      return;
    }
    int end = dataEnd;
    channel.force(false);
    syncedEnd = end;
    headerDirty = false;
    if (sealed && !sealSynced && end == dataEnd) {
      writeSeal(true);
    }
  }

  /** Unmaps and closes; no access afterwards. */
  synchronized void release() {
    if (released) {
      return;
    }
    released = true;
    chainView = null;
    Unmapper.unmap(mapping);
    mapping = null;
    try {
      channel.close();
    } catch (IOException e) {
      // Nothing to keep: the segment is no longer used.
    }
  }

  /** Releases and deletes the file. */
  void delete() throws IOException {
    release();
    files.deleteIfExists(path);
  }

  @Override
  public String toString() {
    return path.getFileName() + "[" + base + ".." + lastSequence + ", end " + dataEnd
        + (sealed ? ", sealed]" : "]");
  }
}
