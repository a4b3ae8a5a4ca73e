package io.qubiq.buffer;

import io.qubiq.fileops.FileOps;
import io.qubiq.fileops.NewerFormatException;
import io.qubiq.fileops.StoreFormat;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A {@link DurableBuffer} in a directory of fixed-size, memory-mapped segment files.
 *
 * <h2>On-disk format, version 1 (all integers little-endian; full text in docs/formats/buffer.md)</h2>
 *
 * <pre>
 * DIR/FORMAT                  "qubiq-buffer format 1": refused when newer      (BufferFormat)
 * DIR/buffer.lock             PID of the owner; an OS lock held while open      (DirectoryLock)
 * DIR/ack.wm                  consume watermark, two checksummed slots          (AckWatermark)
 * DIR/clean.mark              present only between a clean close and the next open
 * DIR/00000000000000000001.seg  segments named by base sequence, 20 digits
 * DIR/prepared-N.tmp          a pre-allocated segment not yet in use (no records)
 * DIR/corrupt/                data set aside by recovery, each file with a .note.txt
 *
 * segment = 128-byte header (identity + seal, see SegmentHeader) + frames from offset 128
 * frame   = u32 payload length | u32 CRC32C | u64 sequence | u64 append ms | payload | pad to 8
 *           CRC32C covers sequence, time and payload, then the 4 length bytes
 * </pre>
 *
 * <p><b>Committed.</b> An append writes sequence, time and payload, then the checksum, then the
 * length word (non-zero) into a zero-filled segment, then publishes the new end to readers. A
 * record is committed once its length word is stored: it survives {@code kill -9} because the
 * page cache does. Surviving power loss needs an fsync: {@link Durability#ALWAYS} returns only
 * after one (group commit), {@link Durability#PERIODIC} runs one every interval, {@link
 * Durability#NONE} leaves it to the kernel and to {@link #close()}.
 *
 * <p><b>Crash and recovery.</b> {@link #open} takes the directory lock, removes the clean-shutdown
 * marker, and rebuilds the chain with {@link SegmentRecovery}: trusted seals are not scanned, other
 * segments are validated record by record; the first torn or corrupt record ends a segment and a
 * gap in the chain sets the rest aside in {@code corrupt/}. Open never throws for bad data; the
 * {@link RecoveryReport} says what was recovered and discarded and why. New appends always go to
 * a new segment, so recovered files are never written again except for their seal.
 *
 * <p><b>Acknowledgement.</b> The reader's acknowledgement writes {@code ack.wm} before the head
 * moves; a segment is deleted only when all its records are consumed and that watermark was
 * fsynced. A crash therefore replays unacknowledged records and, at worst, some acknowledged ones.
 *
 * <p><b>Limits.</b> {@link OverflowPolicy#REFUSE} throws {@link BufferFullException};
 * {@link OverflowPolicy#DROP_OLDEST} advances the head and counts every dropped record.
 *
 * <p><b>Threading.</b> Appends are serialized by one lock (copying a record into the mapping
 * takes nanoseconds); with ALWAYS they then wait outside it for a shared fsync. The reader, the
 * watermark and trimming use the chain lock (taken after the append lock, never before). A
 * background thread pre-allocates and pre-touches the next segment, and with PERIODIC another one
 * runs the fsync.
 *
 * <p><b>Interrupts.</b> The JDK closes a file channel when a thread is interrupted inside an
 * operation on it. Fsyncs therefore run on the buffer's own threads, and waits ignore interrupts.
 * The reader's watermark write and an appender's segment roll still touch a channel on the
 * caller's thread: interrupting such a thread at that moment leaves the buffer failing with
 * {@link BufferIOException} until it is reopened.
 */
public final class SegmentedDiskBuffer implements DurableBuffer {
  private static final VarHandle TAIL;

  static {
    try {
      TAIL = MethodHandles.lookup().findVarHandle(SegmentedDiskBuffer.class, "tailSequence",
          long.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final BufferOptions options;
  private final Path dir;
  private final FileOps channels;
  private final DirectoryLock lock;
  private final AckWatermark watermark;
  private final SequenceFloor floor;
  private final SegmentChain chain;
  private final SegmentPreparer preparer;
  private final SegmentWriter writer;
  private final Occupancy occupancy;
  private final GroupCommit groupCommit;
  private final RecoveryReport report;
  private final BufferReader reader;
  private final Object appendLock = new Object();
  private final PeriodicSync periodic;
  private volatile long tailSequence;
  private volatile boolean closed;

  private SegmentedDiskBuffer(BufferOptions options, FileOps channels,
      DirectoryLock lock, AckWatermark watermark, SequenceFloor floor,
      SegmentRecovery.Result recovered,
      boolean cleanShutdown, long nextSequence, Occupancy occupancy, WatermarkListener listener,
      long startedNanos) throws IOException {
    this.options = options;
    this.dir = options.dir();
    this.channels = channels;
    this.lock = lock;
    this.watermark = watermark;
    this.floor = floor;
    this.occupancy = occupancy;
    this.chain = new SegmentChain(recovered.segments(), watermark, occupancy,
        new CorruptFolder(dir), listener);
    long previousLast = chain.chainEnd(watermark.consumed());
    chain.trim();
    // the newest record there is; the next one may be further on (the floors skip sequences that
    // were, or may have been, issued before and lost)
    this.tailSequence = Math.min(nextSequence - 1, Math.max(previousLast, watermark.consumed()));
    boolean durable = options.durability() != Durability.NONE;
    // ALWAYS prepares files in small pages and fsyncs their zeros in the background, so an
    // append's fsync writes only records; the others get large pages (SegmentPreparer).
    this.preparer = new SegmentPreparer(dir, channels, options.segmentBytes(),
        options.durability() == Durability.ALWAYS);
    this.writer = new SegmentWriter(dir, channels, preparer, chain, floor, nextSequence, previousLast,
        durable);
    this.groupCommit = new GroupCommit(() -> tailSequence, this::forceAll, 0);
    this.reader = new SegmentReader(chain, dir, () -> closed, () -> tailSequence);
    List<RecoveryReport.Finding> findings = new ArrayList<>(recovered.findings());
    findings.addAll(chain.openFindings());
    long discardedAtOpen = chain.openFindings().stream()
        .mapToLong(RecoveryReport.Finding::bytesDiscarded).sum();
    this.report = new RecoveryReport(cleanShutdown, recovered.trusted(), recovered.scanned(),
        occupancy.records(), recovered.bytesDiscarded() + discardedAtOpen, findings,
        Duration.ofNanos(System.nanoTime() - startedNanos));
    preparer.prepareAhead();
    this.periodic = options.durability() == Durability.PERIODIC
        ? new PeriodicSync(groupCommit, options.periodicFsyncIntervalMs(), threadName(dir))
        : null;
    occupancy.statsFrom(this::stats); // last: a backlog above high water is reported from here
  }

  /** {@code <parent>/<dir>}: every channel's buffer directory is called {@code buffer}. */
  private static String threadName(Path dir) {
    Path parent = dir.getParent();
    return parent == null || parent.getFileName() == null
        ? String.valueOf(dir.getFileName()) : parent.getFileName() + "/" + dir.getFileName();
  }

  /** Opens (creating if needed) the buffer in {@code options.dir()}. */
  public static SegmentedDiskBuffer open(BufferOptions options, WatermarkListener listener)
      throws BufferException {
    return open(options, listener, FileOps.system());
  }

  /**
   * Opens with custom file operations ({@link FileChannelFactory} for fault injection, a
   * recording {@link FileOps} for the power-loss tests).
   *
   * @throws BufferLockedException another owner holds the directory
   * @throws BufferFormatException a newer gateway wrote the buffer; nothing was changed
   * @throws BufferIOException the directory cannot be read or written
   */
  public static SegmentedDiskBuffer open(BufferOptions options, WatermarkListener listener,
      FileOps channels) throws BufferException {
    Objects.requireNonNull(options.dir(), "a disk buffer needs options.dir()");
    long started = System.nanoTime();
    Path dir = options.dir();
    DirectoryLock lock = null;
    AckWatermark watermark = null;
    SequenceFloor floor = null;
    SegmentRecovery.Result recovered = null;
    try {
      channels.createDirectories(dir);
      lock = DirectoryLock.acquire(dir);
      StoreFormat.Check format = BufferFormat.check(dir, channels); // before anything changes
      Optional<Long> cleanNext = CleanShutdownMarker.consume(dir, channels);
      boolean clean = cleanNext.isPresent();
      SegmentPreparer.deleteLeftovers(dir, channels);
      watermark = AckWatermark.open(dir, channels);
      floor = SequenceFloor.open(dir, channels, options.durability() != Durability.NONE);
      CorruptFolder corrupt = new CorruptFolder(dir);
      recovered = SegmentRecovery.run(dir, channels, cleanNext.orElse(0L), watermark.consumed(),
          watermark.known(), floor.newestBase(), corrupt);
      // the highest of every record of how far sequences went: segments (set-aside ones too),
      // the watermark's floor, a clean shutdown's next, and the floor file written at each roll
      long next = Math.max(Math.max(recovered.sequenceFloor(), watermark.floor()),
          Math.max(watermark.consumed() + 1, Math.max(cleanNext.orElse(0L), floor.floor())));
      watermark.raiseFloor(next);
      if (watermark.damaged() || recovered.findings().stream()
          .anyMatch(f -> f.setAside().isPresent())) {
        watermark.sync(); // the floor now covers sequences that only corrupt/ still holds
      }
      List<Segment> live = recovered.segments();
      floor.opened(next, live.isEmpty() || live.get(live.size() - 1).isEmpty() ? 0
          : live.get(live.size() - 1).base());
      if (watermark.damaged()) {
        recovered = recovered.with(new RecoveryReport.Finding(RecoveryReport.Reason.ACK_DAMAGED,
            dir.resolve(AckWatermark.FILE_NAME), 0, 0, Optional.empty(),
            "neither slot of the ack watermark was readable: every buffered record is delivered"
                + " again from the oldest (some may arrive twice); none is lost"));
      }
      BufferFormat.record(dir, format, channels);
      Occupancy occupancy = new Occupancy(options, listener);
      SegmentedDiskBuffer buffer = new SegmentedDiskBuffer(options, channels, lock, watermark,
          floor, recovered, clean, next, occupancy, listener, started);
      return buffer;
    } catch (IOException | RuntimeException e) {
      if (recovered != null) {
        recovered.segments().forEach(Segment::release);
      }
      closeQuietly(floor);
      closeQuietly(watermark);
      closeQuietly(lock);
      if (e instanceof NewerFormatException newer) {
        throw new BufferFormatException(newer);
      }
      if (e instanceof IOException io) {
        throw new BufferIOException("opening buffer " + dir + " failed", io);
      }
      throw (RuntimeException) e;
    }
  }

  @Override
  public long append(byte[] payload) throws BufferException {
    long sequence = store(payload);
    if (options.durability() == Durability.ALWAYS) {
      groupCommit.awaitDurable(sequence);
    }
    return sequence;
  }

  @Override
  public CompletableFuture<Long> appendAsync(byte[] payload) throws BufferException {
    long sequence = store(payload);
    return options.durability() == Durability.ALWAYS ? groupCommit.durable(sequence)
        : CompletableFuture.completedFuture(sequence);
  }

  /** Writes and publishes one record; returns its sequence. */
  private long store(byte[] payload) throws BufferException {
    int frame = checkedFrame(payload);
    synchronized (appendLock) {
      admit(frame);
      long sequence;
      try {
        sequence = writer.append(payload, CoarseClock.millis());
      } catch (IOException e) {
        throw new BufferIOException("append to " + dir + " failed; nothing was stored", e);
      }
      TAIL.setRelease(this, sequence);
      occupancy.added(frame, 1);
      return sequence;
    }
  }

  @Override
  public SequenceRange appendBatch(List<byte[]> payloads) throws BufferException {
    if (payloads.isEmpty()) {
      throw new IllegalArgumentException("empty batch");
    }
    long total = 0;
    for (byte[] payload : payloads) {
      total += checkedFrame(payload);
    }
    if (total > options.maxBytes()) {
      throw new IllegalArgumentException("batch of " + total + " bytes exceeds max_bytes");
    }
    long first;
    long last;
    synchronized (appendLock) {
      admit(total);
      first = writer.nextSequence();
      last = first - 1;
      long now = System.currentTimeMillis(); // once per batch: no need for the ticking CoarseClock
      for (byte[] payload : payloads) {
        try {
          last = writer.append(payload, now);
        } catch (IOException e) {
          throw new BufferIOException("batch append to " + dir + " failed after "
              + (last - first + 1) + " of " + payloads.size() + " records (those are stored)", e,
              (int) (last - first + 1));
        } finally {
          if (last >= first) {
            tailSequence = last;
          }
        }
        occupancy.added(RecordFormat.frameBytes(payload.length), 1);
      }
    }
    if (options.durability() == Durability.ALWAYS) {
      groupCommit.awaitDurable(last);
    }
    return new SequenceRange(first, last);
  }

  private int checkedFrame(byte[] payload) {
    if (payload.length == 0) {
      throw new IllegalArgumentException("empty payload");
    }
    int frame = RecordFormat.frameBytes(payload.length);
    if (frame > options.segmentBytes() - SegmentHeader.BYTES || frame > options.maxBytes()) {
      throw new IllegalArgumentException("record of " + payload.length
          + " bytes does not fit one segment (segment_bytes " + options.segmentBytes() + ")");
    }
    return frame;
  }

  /** Under the append lock: makes room for {@code bytes} or refuses. */
  private void admit(long bytes) throws BufferFullException {
    if (closed) {
      throw new IllegalStateException("buffer " + dir + " is closed");
    }
    if (occupancy.fits(bytes)) {
      return;
    }
    if (options.overflowPolicy() == OverflowPolicy.REFUSE) {
      throw new BufferFullException(occupancy.bytes(), occupancy.limit(), bytes);
    }
    chain.dropUntilFits(bytes);
  }

  /** Fsyncs every segment with unsynced records, then the watermark. */
  private void forceAll() throws IOException {
    for (Segment segment : chain.snapshot()) {
      segment.force();
    }
    if (watermark.needsSync()) {
      watermark.sync();
    }
  }

  @Override
  public void reserveSequencesThrough(long used) throws BufferException {
    synchronized (appendLock) {
      if (closed) {
        throw new IllegalStateException("buffer " + dir + " is closed");
      }
      if (used < writer.nextSequence()) {
        return;
      }
      try {
        watermark.raiseFloor(used + 1);
        watermark.sync();
        floor.raise(used + 1);
      } catch (IOException e) {
        throw new BufferIOException("raising the sequence floor of " + dir + " failed", e);
      }
      writer.skipTo(used + 1);
    }
  }

  @Override
  public BufferReader reader() {
    return reader;
  }

  @Override
  public BufferStats stats() {
    long tail = tailSequence;
    return new BufferStats(occupancy.bytes(), options.maxBytes(), occupancy.records(),
        chain.oldestAppendTime(), chain.headSequence(tail + 1), tail, chain.dropped(),
        chain.discarded(), groupCommit.rounds(), groupCommit.failures());
  }

  @Override
  public void sync() throws BufferException {
    if (closed) {
      throw new IllegalStateException("buffer " + dir + " is closed");
    }
    groupCommit.awaitDurable(tailSequence);
  }

  @Override
  public void holdSize(boolean hold) {
    occupancy.hold(hold, options.segmentBytes());
  }

  @Override
  public RecoveryReport recoveryReport() {
    return report;
  }

  @Override
  public void close() throws BufferException {
    IOException failure = null;
    synchronized (appendLock) {
      if (closed) {
        return;
      }
      closed = true;
      stopBackground();
      try {
        forceAll();
        groupCommit.stop(true);
        writer.sealOnClose(true);
        forceAll();
        watermark.sync();
        CleanShutdownMarker.write(dir, channels, writer.nextSequence());
      } catch (IOException e) {
        failure = e;
      }
      releaseResources();
    }
    if (failure != null) {
      throw new BufferIOException("closing " + dir + " failed; the next open will scan", failure);
    }
  }

  /**
   * Test hook: stops as {@code kill -9} would, leaving the page cache as it is (no fsync, no
   * seal, no clean-shutdown marker) and releasing the directory for a reopen in this JVM.
   */
  void simulateCrash() {
    synchronized (appendLock) {
      if (closed) {
        return;
      }
      closed = true;
      stopBackground();
      groupCommit.stop(false);
      releaseResources();
    }
  }

  private void stopBackground() {
    if (periodic != null) {
      periodic.close();
    }
    preparer.close();
  }

  private void releaseResources() {
    chain.releaseAll();
    closeQuietly(floor);
    closeQuietly(watermark);
    closeQuietly(lock);
  }

  private static void closeQuietly(AutoCloseable closeable) {
    if (closeable == null) {
      return;
    }
    try {
      closeable.close();
    } catch (Exception e) {
      // Releasing: nothing more can be done.
    }
  }

  @Override
  public String toString() {
    return "SegmentedDiskBuffer[" + dir + "]";
  }
}
