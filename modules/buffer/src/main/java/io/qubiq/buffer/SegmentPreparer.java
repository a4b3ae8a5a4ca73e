package io.qubiq.buffer;

import io.qubiq.fileops.FileOps;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.EnumSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Pre-allocates the next segment off the appenders' path, on a background thread, so that an
 * append only copies bytes into pages that are already there. A full disk therefore fails here,
 * as an {@link IOException} (on a full disk one that {@link DiskFull} recognises), never inside
 * an append; the append that needed the segment fails with nothing stored and the next one tries
 * again. Two ways, by durability:
 *
 * <ul>
 *   <li><b>NONE and PERIODIC</b>: the file is written with zeros in 2 MiB writes (which reserves its
 *       disk blocks and lets the kernel cache it in 2 MiB folios where it offers them, as Linux 6.x
 *       does with ext4), then mapped, and a zero is written into every page, which maps each
 *       folio with one fault.
 *   <li><b>ALWAYS</b>: the file is written with zeros in 256 KiB writes (which reserves its blocks
 *       too, but keeps the page cache in small folios), mapped, a zero is written into every page,
 *       and the file is fsynced, so an append's fsync writes only records. Large folios would cost
 *       ALWAYS dearly: an append re-dirties the whole folio it writes into, and every fsync then
 *       writes 2 MiB for a few records (measured: 4 blocking producers 1,659 appends/s against
 *       7,127 with small folios, docs/performance.md).
 * </ul>
 *
 * <p><b>Why every block is reserved by {@code write}.</b> A page of a mapping that the file system
 * cannot back faults, and the JVM reports that fault asynchronously in compiled code: the store is
 * skipped and an {@link InternalError} is raised later, possibly after {@link #prepare} returned.
 * A segment touched into a sparse file on a disk that filled meanwhile could therefore reach the
 * writer with a page that is not there, and the producer's append into it faulted (a CI run of
 * 2026-12-02, ALWAYS on a 2 MiB tmpfs filled beside the preparer). Writing the zeros first makes a
 * full disk an {@link IOException} from {@code write}, synchronous and before anything is mapped;
 * the touch afterwards only maps pages that exist. The {@link InternalError} catch stays as a last
 * guard.
 *
 * <p><b>Files.</b> A prepared file is named {@code prepared-N.tmp} until the writer gives it a
 * header and renames it to its base sequence. Leftover {@code .tmp} files hold no records and are
 * deleted on open.
 *
 * <p><b>Threading.</b> {@link #take()} and {@link #close()} are called under the append lock; the
 * work runs on one daemon thread per buffer, {@code qubiq-buffer-prepare-<n>}.
 */
final class SegmentPreparer implements AutoCloseable {
  private static final int PAGE = 4096;
  private static final int ZERO_CHUNK = 2 * 1024 * 1024;
  /** Zero writes for ALWAYS: small enough that the page cache keeps the file in small folios. */
  private static final int SMALL_ZERO_CHUNK = 256 * 1024;
  /** Zeros shared by every preparer: only ever read (each write takes its own duplicate). */
  private static final ByteBuffer ZEROS = ByteBuffer.allocateDirect(ZERO_CHUNK).asReadOnlyBuffer();
  private static final AtomicInteger THREADS = new AtomicInteger();

  private final Path dir;
  private final FileOps channels;
  private final int segmentBytes;
  private final boolean fsyncedAppends;
  private final ExecutorService executor;
  private Future<Prepared> next;
  private int counter;

  /** A zero-filled, mapped file ready to become a segment. */
  record Prepared(Path file, FileChannel channel, MappedByteBuffer mapping, FileOps files) {
    void discard() {
      Unmapper.unmap(mapping);
      try {
        channel.close();
        files.deleteIfExists(file);
      } catch (IOException e) {
        // A stale .tmp file is deleted on the next open.
      }
    }
  }

  SegmentPreparer(Path dir, FileOps channels, int segmentBytes,
      boolean fsyncedAppends) {
    this.dir = dir;
    this.channels = channels;
    this.segmentBytes = segmentBytes;
    this.fsyncedAppends = fsyncedAppends;
    int id = THREADS.incrementAndGet();
    this.executor = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "qubiq-buffer-prepare-" + id);
      t.setDaemon(true);
      return t;
    });
  }

  /** Deletes {@code prepared-*.tmp} files a previous owner left (they never hold records). */
  static void deleteLeftovers(Path dir, FileOps ops) throws IOException {
    try (java.util.stream.Stream<Path> files = Files.list(dir)) {
      for (Path f : files.filter(p -> p.getFileName().toString().startsWith("prepared-")
          && p.getFileName().toString().endsWith(".tmp")).toList()) {
        ops.deleteIfExists(f);
      }
    }
  }

  /** Starts preparing the next segment if none is under way. */
  void prepareAhead() {
    if (next == null) {
      int n = counter++;
      next = executor.submit(() -> prepare(dir.resolve("prepared-" + n + ".tmp")));
    }
  }

  /** The prepared segment, waiting for it if needed; starts the one after it. */
  Prepared take() throws IOException {
    prepareAhead();
    Future<Prepared> pending = next;
    next = null;
    try {
      Prepared prepared = pending.get();
      prepareAhead();
      return prepared;
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      throw cause instanceof IOException io ? io : new IOException(cause);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting for the next segment");
    }
  }

  private Prepared prepare(Path file) throws IOException {
    FileChannel channel = channels.open(file, EnumSet.of(StandardOpenOption.CREATE,
        StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.READ, StandardOpenOption.WRITE));
    MappedByteBuffer mapping = null;
    try {
      fillWithZeros(channel, segmentBytes, fsyncedAppends ? SMALL_ZERO_CHUNK : ZERO_CHUNK);
      mapping = channel.map(FileChannel.MapMode.READ_WRITE, 0, segmentBytes);
      touch(mapping);
      if (fsyncedAppends) {
        channel.force(true);
      }
      return new Prepared(file, channel, mapping, channels);
    } catch (IOException | RuntimeException e) {
      new Prepared(file, channel, mapping, channels).discard();
      throw e;
    } catch (InternalError e) {
      // A fault while touching a mapped page: the file system could not back it (disk full).
      new Prepared(file, channel, mapping, channels).discard();
      throw new IOException(DiskFull.NO_SPACE + ": could not reserve " + segmentBytes
          + " bytes for " + file + " (a page of its mapping could not be backed)", e);
    }
  }

  /**
   * Writes zeros over the whole file, {@code chunk} bytes per call, which reserves its disk blocks
   * (a full disk fails here, synchronously). With {@value #ZERO_CHUNK}-byte calls the
   * page cache takes the file in large folios (2 MiB where the kernel and file system offer them,
   * as Linux 6.x does with ext4 here) and reserves its disk blocks, so that {@link #touch} then
   * needs one page fault per folio instead of one per 4 KiB page. Measured here for a 64 MiB
   * file: 14–105 ms and 32–36 faults, against 137–160 ms and about 3,250 faults for touching a
   * sparse file; with 256 KiB writes the folios stayed small and the touch was as slow as before
   * (docs/performance.md, durable buffer). Where the kernel offers no large folios the file is
   * still allocated and cached, and the touch faults its pages in one by one. ALWAYS uses
   * {@value #SMALL_ZERO_CHUNK}-byte calls, to keep small folios (see the class comment).
   */
  private static void fillWithZeros(FileChannel channel, int bytes, int chunk) throws IOException {
    for (long position = 0; position < bytes; ) {
      ByteBuffer zeros = ZEROS.duplicate();
      zeros.limit((int) Math.min(chunk, bytes - position));
      while (zeros.hasRemaining()) {
        position += channel.write(zeros, position);
      }
    }
  }

  /**
   * Writes a zero into every page, on this one thread: each first write maps the page (or the
   * whole large folio it belongs to) into the buffer's mapping, which costs microseconds per fault
   * on a virtual machine and is exactly the work the appender must not do. One thread, because
   * page faults on one file do not get faster with a second thread here: two threads touching the
   * two halves of a 64 MiB sparse file took 202–995 ms against 223–439 ms for one
   * (docs/performance.md, durable buffer).
   */
  private static void touch(MappedByteBuffer mapping) {
    touchRange(mapping, 0, mapping.capacity());
  }

  private static void touchRange(MappedByteBuffer mapping, int from, int to) {
    for (int page = from; page < to; page += PAGE) {
      mapping.put(page, (byte) 0);
    }
  }

  @Override
  public void close() {
    Future<Prepared> pending = next;
    next = null;
    executor.shutdown();
    try {
      executor.awaitTermination(30, TimeUnit.SECONDS);
      if (pending != null && pending.isDone() && !pending.isCancelled()) {
        pending.get().discard();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException e) {
      // Nothing was prepared.
    }
  }
}
