package io.qubiq.app.runtime;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The directory that holds all of a gateway's state (buffers, quarantine, logs, embedded
 * databases). One gateway process owns it at a time: {@code gateway.lock} is held with an OS file
 * lock for the life of the process and contains the owner's PID, so a second gateway started on
 * the same directory fails with a message naming that PID. The OS releases the lock when the
 * process dies, even by {@code kill -9}; a stale file without a lock is simply taken over.
 *
 * <p>Threading: opened and closed by the main thread.
 */
public final class DataDirectory implements AutoCloseable {

    static final String LOCK_FILE = "gateway.lock";

    private final Path root;
    private final FileChannel lockChannel;
    private final FileLock lock;

    private DataDirectory(Path root, FileChannel lockChannel, FileLock lock) {
        this.root = root;
        this.lockChannel = lockChannel;
        this.lock = lock;
    }

    /** Creates the directory if needed and takes its lock. */
    public static DataDirectory open(Path dir) throws DataDirectoryException {
        Path root = dir.toAbsolutePath().normalize();
        try {
            Files.createDirectories(root);
        } catch (IOException e) {
            throw new DataDirectoryException("cannot create data directory " + root + ": " + e.getMessage(), e);
        }
        if (!Files.isWritable(root)) {
            throw new DataDirectoryException("data directory " + root + " is not writable by this user");
        }
        Path lockFile = root.resolve(LOCK_FILE);
        FileChannel channel = null;
        try {
            channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
            FileLock lock = tryLock(channel);
            if (lock == null) {
                String holder = readPid(channel);
                channel.close();
                throw new DataDirectoryException("data directory " + root + " is in use by another gateway (PID "
                        + holder + "); stop that gateway or start this one with another --data-dir");
            }
            channel.truncate(0);
            channel.write(ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII)), 0);
            channel.force(true);
            return new DataDirectory(root, channel, lock);
        } catch (IOException e) {
            closeQuietly(channel);
            throw new DataDirectoryException("cannot lock data directory " + root + " (" + lockFile + "): "
                    + e.getMessage(), e);
        }
    }

    private static FileLock tryLock(FileChannel channel) throws IOException {
        try {
            return channel.tryLock();
        } catch (OverlappingFileLockException heldInThisProcess) {
            return null;
        }
    }

    private static String readPid(FileChannel channel) {
        try {
            ByteBuffer buffer = ByteBuffer.allocate(32);
            channel.read(buffer, 0);
            String pid = new String(buffer.array(), 0, buffer.position(), StandardCharsets.US_ASCII).trim();
            return pid.isEmpty() ? "unknown" : pid;
        } catch (IOException e) {
            return "unknown";
        }
    }

    private static void closeQuietly(FileChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // already failing; the original error is reported
            }
        }
    }

    public Path root() {
        return root;
    }

    /** A subdirectory for one owner ({@code logs}, {@code buffers/historian}), created on demand. */
    public Path resolve(String relative) throws IOException {
        Path path = root.resolve(relative).normalize();
        if (!path.startsWith(root)) {
            throw new IllegalArgumentException("'" + relative + "' points outside the data directory");
        }
        return Files.createDirectories(path);
    }

    @Override
    public void close() throws IOException {
        try {
            lock.release();
        } finally {
            lockChannel.close();
        }
    }
}
