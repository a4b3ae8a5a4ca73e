package io.qubiq.fileops.powerloss;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;

/**
 * A real file channel whose writes, truncations, fsyncs and writable mappings are logged by its
 * {@link RecordingFileOps}. Each changing operation runs under the recorder's lock.
 */
final class RecordingChannel extends FileChannel {
  private final RecordingFileOps recorder;
  private final int id;
  private final FileChannel delegate;

  RecordingChannel(RecordingFileOps recorder, int id, FileChannel delegate) {
    this.recorder = recorder;
    this.id = id;
    this.delegate = delegate;
  }

  int id() {
    return id;
  }

  FileChannel delegate() {
    return delegate;
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
  public int read(ByteBuffer dst, long position) throws IOException {
    return delegate.read(dst, position);
  }

  @Override
  public int write(ByteBuffer src) throws IOException {
    synchronized (recorder) {
      long position = delegate.position();
      int n = write(src, position);
      delegate.position(position + n);
      return n;
    }
  }

  @Override
  public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
    long total = 0;
    for (int i = offset; i < offset + length; i++) {
      total += write(srcs[i]);
    }
    return total;
  }

  @Override
  public int write(ByteBuffer src, long position) throws IOException {
    synchronized (recorder) {
      recorder.observe();
      ByteBuffer copy = src.duplicate();
      int n = delegate.write(src, position);
      byte[] bytes = new byte[n];
      copy.get(bytes);
      recorder.written(id, position, bytes);
      return n;
    }
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
    synchronized (recorder) {
      recorder.observe();
      delegate.truncate(size);
      recorder.truncated(id, size);
      return this;
    }
  }

  @Override
  public void force(boolean metaData) throws IOException {
    synchronized (recorder) {
      recorder.observe();
      delegate.force(metaData);
      recorder.forced(id);
    }
  }

  @Override
  public long transferTo(long position, long count, WritableByteChannel target)
      throws IOException {
    return delegate.transferTo(position, count, target);
  }

  @Override
  public long transferFrom(ReadableByteChannel src, long position, long count) {
    throw new UnsupportedOperationException("not recorded: write through write(ByteBuffer)");
  }

  @Override
  public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
    MappedByteBuffer mapping = delegate.map(mode, position, size);
    if (mode == MapMode.READ_WRITE) {
      recorder.mapped(this);
    }
    return mapping;
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
    recorder.closing(this);
    delegate.close();
  }
}
