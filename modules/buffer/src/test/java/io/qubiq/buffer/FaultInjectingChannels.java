package io.qubiq.buffer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

/**
 * A {@link FileChannelFactory} whose channels fail the Nth write or fsync on matching files, once.
 * Counting starts when armed; everything else is delegated to the real channel.
 */
final class FaultInjectingChannels implements FileChannelFactory {
  private final AtomicLong writesUntilFailure = new AtomicLong(Long.MAX_VALUE);
  private final AtomicLong forcesUntilFailure = new AtomicLong(Long.MAX_VALUE);
  private volatile Predicate<Path> target = p -> true;
  private final AtomicLong injected = new AtomicLong();
  private volatile String problem = "";

  /** The {@code n}th write (1 = the next one) to a file matching {@code files} fails. */
  void failWrite(long n, Predicate<Path> files) {
    target = files;
    writesUntilFailure.set(n);
  }

  /** The {@code n}th fsync (1 = the next one) of a file matching {@code files} fails. */
  void failForce(long n, Predicate<Path> files) {
    target = files;
    forcesUntilFailure.set(n);
  }

  /** Injected failures say this instead of a neutral text, such as the OS's "No space left on device". */
  void failingWith(String message) {
    problem = message;
  }

  long injected() {
    return injected.get();
  }

  @Override
  public FileChannel open(Path path, Set<? extends OpenOption> options) throws IOException {
    return new Channel(path, FileChannel.open(path, options));
  }

  private void maybeFail(Path path, AtomicLong countdown, String what) throws IOException {
    if (target.test(path) && countdown.get() != Long.MAX_VALUE
        && countdown.decrementAndGet() == 0) {
      countdown.set(Long.MAX_VALUE);
      injected.incrementAndGet();
      throw new IOException(problem.isEmpty() ? "injected " + what + " failure on " + path.getFileName()
          : problem + " (injected " + what + " failure on " + path.getFileName() + ")");
    }
  }

  private final class Channel extends FileChannel {
    private final Path path;
    private final FileChannel delegate;

    Channel(Path path, FileChannel delegate) {
      this.path = path;
      this.delegate = delegate;
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
      return delegate.read(dst);
    }

    @Override
    public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
      return delegate.read(dsts, offset, length);
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
      maybeFail(path, writesUntilFailure, "write");
      return delegate.write(src);
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
      maybeFail(path, writesUntilFailure, "write");
      return delegate.write(srcs, offset, length);
    }

    @Override
    public long position() throws IOException {
      return delegate.position();
    }

    @Override
    public FileChannel position(long newPosition) throws IOException {
      delegate.position(newPosition);
      return this;
    }

    @Override
    public long size() throws IOException {
      return delegate.size();
    }

    @Override
    public FileChannel truncate(long size) throws IOException {
      delegate.truncate(size);
      return this;
    }

    @Override
    public void force(boolean metaData) throws IOException {
      maybeFail(path, forcesUntilFailure, "fsync");
      delegate.force(metaData);
    }

    @Override
    public long transferTo(long position, long count, WritableByteChannel target)
        throws IOException {
      return delegate.transferTo(position, count, target);
    }

    @Override
    public long transferFrom(ReadableByteChannel src, long position, long count)
        throws IOException {
      maybeFail(path, writesUntilFailure, "write");
      return delegate.transferFrom(src, position, count);
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
      return delegate.read(dst, position);
    }

    @Override
    public int write(ByteBuffer src, long position) throws IOException {
      maybeFail(path, writesUntilFailure, "write");
      return delegate.write(src, position);
    }

    @Override
    public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
      return delegate.map(mode, position, size);
    }

    @Override
    public FileLock lock(long position, long size, boolean shared) throws IOException {
      return delegate.lock(position, size, shared);
    }

    @Override
    public FileLock tryLock(long position, long size, boolean shared) throws IOException {
      return delegate.tryLock(position, size, shared);
    }

    @Override
    protected void implCloseChannel() throws IOException {
      delegate.close();
    }
  }
}
