package io.qubiq.storeforward.quarantine;

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
 * Exclusive ownership of a quarantine directory: an OS lock on {@code quarantine.lock}, which holds
 * the owner's PID as text.
 *
 * <p>OS file locks belong to the process, so a second store in the same JVM would not be stopped
 * by the lock itself (and closing its channel would release the first store's lock). Directories
 * held by this JVM are therefore also kept in a static set and a second opener here is refused
 * before the file is touched. The OS releases the lock when the owner dies, {@code kill -9}
 * included; a PID left in the file means nothing once the lock is free.
 *
 * <p><b>Threading.</b> {@link #acquire} and {@link #close} are safe from any thread.
 */
final class QuarantineDirectoryLock implements AutoCloseable {

    static final String FILE_NAME = "quarantine.lock";
    private static final Map<Path, Boolean> HELD_IN_THIS_JVM = new ConcurrentHashMap<>();

    private final Path key;
    private final FileChannel channel;
    private final FileLock lock;

    private QuarantineDirectoryLock(Path key, FileChannel channel, FileLock lock) {
        this.key = key;
        this.channel = channel;
        this.lock = lock;
    }

    static QuarantineDirectoryLock acquire(Path dir) throws IOException {
        Path key = dir.toRealPath();
        long pid = ProcessHandle.current().pid();
        if (HELD_IN_THIS_JVM.putIfAbsent(key, Boolean.TRUE) != null) {
            throw new QuarantineLockedException(dir, OptionalLong.of(pid));
        }
        FileChannel channel = null;
        try {
            channel = FileChannel.open(key.resolve(FILE_NAME), StandardOpenOption.CREATE,
                    StandardOpenOption.READ, StandardOpenOption.WRITE);
            FileLock lock = tryLock(channel);
            if (lock == null) {
                OptionalLong holder = readPid(channel);
                throw new QuarantineLockedException(dir, holder);
            }
            channel.truncate(0);
            channel.write(ByteBuffer.wrap(Long.toString(pid).getBytes(StandardCharsets.US_ASCII)), 0);
            return new QuarantineDirectoryLock(key, channel, lock);
        } catch (IOException | RuntimeException e) {
            if (channel != null) {
                try {
                    channel.close();
                } catch (IOException suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            HELD_IN_THIS_JVM.remove(key);
            throw e;
        }
    }

    private static FileLock tryLock(FileChannel channel) throws IOException {
        try {
            return channel.tryLock();
        } catch (OverlappingFileLockException e) {
            return null;
        }
    }

    private static OptionalLong readPid(FileChannel channel) {
        try {
            ByteBuffer buffer = ByteBuffer.allocate(32);
            channel.read(buffer, 0);
            String text = new String(buffer.array(), 0, buffer.position(), StandardCharsets.US_ASCII).trim();
            return text.isEmpty() ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(text));
        } catch (IOException | NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    @Override
    public void close() throws IOException {
        try {
            lock.release();
        } finally {
            try {
                channel.close();
            } finally {
                HELD_IN_THIS_JVM.remove(key);
            }
        }
    }
}
