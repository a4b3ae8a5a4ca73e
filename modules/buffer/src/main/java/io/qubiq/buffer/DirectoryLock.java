package io.qubiq.buffer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Exclusive ownership of a buffer directory: an OS file lock on {@code buffer.lock}, whose content
 * is the holder's PID, plus a registry of directories held by this JVM.
 *
 * <p>The registry matters because POSIX locks belong to the process: opening and closing a second
 * channel on the lock file from the same JVM would silently drop the first owner's lock. So a
 * second opener in this process is refused from the registry without touching the file, and an
 * opener in another process fails {@code tryLock} and reads the holder's PID from the file. The
 * OS releases the lock when the holder dies, {@code kill -9} included; a stale PID in the file
 * means nothing on its own.
 *
 * <p><b>Threading.</b> Acquire and release are thread-safe.
 */
final class DirectoryLock implements AutoCloseable {
  static final String FILE_NAME = "buffer.lock";
  private static final Map<Path, Long> HELD_HERE = new ConcurrentHashMap<>();

  private final Path key;
  private final FileChannel channel;
  private final FileLock lock;

  private DirectoryLock(Path key, FileChannel channel, FileLock lock) {
    this.key = key;
    this.channel = channel;
    this.lock = lock;
  }

  static DirectoryLock acquire(Path dir) throws IOException, BufferLockedException {
    Path key = dir.toRealPath();
    long pid = ProcessHandle.current().pid();
    if (HELD_HERE.putIfAbsent(key, pid) != null) {
      throw new BufferLockedException(dir, OptionalLong.of(pid));
    }
    FileChannel channel = null;
    try {
      channel = FileChannel.open(key.resolve(FILE_NAME), StandardOpenOption.CREATE,
          StandardOpenOption.READ, StandardOpenOption.WRITE);
      FileLock lock;
      try {
        lock = channel.tryLock();
      } catch (OverlappingFileLockException e) {
        lock = null;
      }
      if (lock == null) {
        OptionalLong holder = readPid(channel);
        channel.close();
        HELD_HERE.remove(key);
        throw new BufferLockedException(dir, holder);
      }
      channel.truncate(0);
      channel.write(ByteBuffer.wrap((pid + "\n").getBytes(StandardCharsets.US_ASCII)), 0);
      return new DirectoryLock(key, channel, lock);
    } catch (IOException | RuntimeException e) {
      if (channel != null) {
        channel.close();
      }
      HELD_HERE.remove(key);
      throw e;
    }
  }

  private static OptionalLong readPid(FileChannel channel) throws IOException {
    ByteBuffer buffer = ByteBuffer.allocate(32);
    channel.read(buffer, 0);
    String text = new String(buffer.array(), 0, buffer.position(), StandardCharsets.US_ASCII);
    try {
      return OptionalLong.of(Long.parseLong(text.trim()));
    } catch (NumberFormatException e) {
      return OptionalLong.empty();
    }
  }

  @Override
  public void close() throws IOException {
    try {
      lock.release();
      channel.close();
    } finally {
      HELD_HERE.remove(key);
    }
  }
}
