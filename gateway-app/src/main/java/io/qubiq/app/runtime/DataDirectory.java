package io.qubiq.app.runtime;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import io.qubiq.fileops.OwnerOnly;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;

/**
 * The directory that holds all of a gateway's state (buffers, quarantine, logs, embedded
 * databases). One gateway process owns it at a time: {@code gateway.lock} is held with an OS file
 * lock for the life of the process and contains the owner's PID, so a second gateway started on
 * the same directory fails with a message naming that PID. The OS releases the lock when the
 * process dies, even by {@code kill -9}; a stale file without a lock is simply taken over.
 *
 * <p>The directory is the gateway user's alone: created {@code 0700}, and once locked it and its
 * top-level folders are made {@code 0700} ({@link DataDirectoryPermissions}); what other local users
 * could read before is reported by {@link #permissionWarning()} for the log.
 *
 * <p>Threading: opened and closed by the main thread.
 */
public final class DataDirectory implements AutoCloseable {

    static final String LOCK_FILE = "gateway.lock";

    private final Path root;
    private final FileChannel lockChannel;
    private final FileLock lock;

    private final Optional<String> permissionWarning;

    private DataDirectory(Path root, FileChannel lockChannel, FileLock lock, Optional<String> permissionWarning) {
        this.root = root;
        this.lockChannel = lockChannel;
        this.lock = lock;
        this.permissionWarning = permissionWarning;
    }

    /** Creates the directory (owner-only) if needed, takes its lock and makes it and its folders owner-only. */
    public static DataDirectory open(Path dir) throws DataDirectoryException {
        Path root = dir.toAbsolutePath().normalize();
        try {
            OwnerOnly.createDirectories(root);
        } catch (IOException e) {
            throw new DataDirectoryException("cannot create data directory " + root + ": " + e.getMessage(), e);
        }
        if (!Files.isWritable(root)) {
            throw new DataDirectoryException("data directory " + root + " is not writable by this user");
        }
        Path lockFile = root.resolve(LOCK_FILE);
        FileChannel channel = null;
        try {
            channel = FileChannel.open(lockFile, java.util.Set.of(StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE), OwnerOnly.fileAttribute());
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
            return new DataDirectory(root, channel, lock, secure(root));
        } catch (IOException e) {
            closeQuietly(channel);
            throw new DataDirectoryException("cannot lock data directory " + root + " (" + lockFile + "): "
                    + e.getMessage(), e);
        }
    }

    private static Optional<String> secure(Path root) {
        try {
            return DataDirectoryPermissions.secure(root).warning(root);
        } catch (IOException e) {
            return Optional.of("could not check or tighten the permissions of the data directory " + root + ": "
                    + e.getMessage() + "; make it readable by the gateway's user only: chmod -R go-rwx " + root);
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

    /**
     * Other local users could read some of the directory before this start (and what was done about it), for
     * a WARN line once the log file is attached; empty when it was the gateway user's alone.
     */
    public Optional<String> permissionWarning() {
        return permissionWarning;
    }

    /** A subdirectory for one owner ({@code logs}, {@code buffers/historian}), created on demand, owner-only. */
    public Path resolve(String relative) throws IOException {
        Path path = root.resolve(relative).normalize();
        if (!path.startsWith(root)) {
            throw new IllegalArgumentException("'" + relative + "' points outside the data directory");
        }
        return OwnerOnly.createDirectories(path);
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
