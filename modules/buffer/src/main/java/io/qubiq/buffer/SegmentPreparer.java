package io.qubiq.buffer;

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
 * Pre-allocates the next segment off the appenders' path: a background thread sizes the file
 * (sparse, so it reads as zeros), maps it and writes a zero into every page, which faults each
 * page in and reserves its disk block here rather than in an append. A full disk therefore fails
 * here, as an {@link IOException}, never inside an append. When the buffer is durable the file
 * is fsynced before use (ALWAYS only), so an append's fsync writes only records.
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
  private static final AtomicInteger THREADS = new AtomicInteger();

  private final Path dir;
  private final FileChannelFactory channels;
  private final int segmentBytes;
  private final boolean forceAfterFill;
  private final ExecutorService executor;
  private Future<Prepared> next;
  private int counter;

  /** A zero-filled, mapped file ready to become a segment. */
  record Prepared(Path file, FileChannel channel, MappedByteBuffer mapping) {
    void discard() {
      Unmapper.unmap(mapping);
      try {
        channel.close();
        Files.deleteIfExists(file);
      } catch (IOException e) {
        // A stale .tmp file is deleted on the next open.
      }
    }
  }

  SegmentPreparer(Path dir, FileChannelFactory channels, int segmentBytes,
      boolean forceAfterFill) {
    this.dir = dir;
    this.channels = channels;
    this.segmentBytes = segmentBytes;
    this.forceAfterFill = forceAfterFill;
    int id = THREADS.incrementAndGet();
    this.executor = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "qubiq-buffer-prepare-" + id);
      t.setDaemon(true);
      return t;
    });
  }

  /** Deletes {@code prepared-*.tmp} files a previous owner left (they never hold records). */
  static void deleteLeftovers(Path dir) throws IOException {
    try (java.util.stream.Stream<Path> files = Files.list(dir)) {
      for (Path f : files.filter(p -> p.getFileName().toString().startsWith("prepared-")
          && p.getFileName().toString().endsWith(".tmp")).toList()) {
        Files.deleteIfExists(f);
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
      channel.write(ByteBuffer.allocate(1), segmentBytes - 1);
      mapping = channel.map(FileChannel.MapMode.READ_WRITE, 0, segmentBytes);
      touch(mapping);
      if (forceAfterFill) {
        channel.force(true);
      }
      return new Prepared(file, channel, mapping);
    } catch (IOException | RuntimeException e) {
      new Prepared(file, channel, mapping).discard();
      throw e;
    } catch (InternalError e) {
      // A fault while touching a mapped page: the file system could not back it (disk full).
      new Prepared(file, channel, mapping).discard();
      throw new IOException("could not reserve " + segmentBytes + " bytes for " + file, e);
    }
  }

  /**
   * Writes a zero into every page, on this one thread: each first write faults the page in and
   * reserves its disk block, which costs microseconds per page on a virtual machine and is exactly
   * the work the appender must not do. One thread, because page faults on one file do not get
   * faster with a second thread here: two threads touching the two halves of a 64 MiB file took
   * 202–995 ms against 223–439 ms for one (docs/performance.md, durable buffer).
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
