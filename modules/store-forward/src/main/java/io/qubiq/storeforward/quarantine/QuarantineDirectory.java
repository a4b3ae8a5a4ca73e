package io.qubiq.storeforward.quarantine;

import io.qubiq.fileops.FileOps;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.EnumSet;
import java.util.OptionalLong;

/**
 * The files of a quarantine directory and the two durable changes made to them.
 *
 * <pre>
 * &lt;dir&gt;/00000000000000000042.qentry        one committed entry (id as 20 zero-padded digits)
 * &lt;dir&gt;/00000000000000000042.qentry.tmp    an add in progress; never committed
 * &lt;dir&gt;/quarantine.lock                    owner's PID, OS-locked while open
 * &lt;dir&gt;/FORMAT                             "qubiq-quarantine format 1"; newer: open refuses
 * &lt;dir&gt;/corrupt/                           damaged entries set aside, each with a .note
 * </pre>
 *
 * <p><b>Write:</b> the bytes go to the temp file, which is fsynced and closed, atomically renamed to
 * the entry name, and then the directory is fsynced. The entry is <i>committed</i> when that rename
 * is durable: before it, a crash leaves at most a temp file; after it, the complete file.
 * <b>Delete:</b> unlink the entry file, then fsync the directory.
 *
 * <p>Every change goes through a {@link FileOps} (the power-loss tests record it).
 *
 * <p><b>Threading.</b> Not synchronized; the store serializes writes and deletes.
 */
final class QuarantineDirectory {

    /** Writes a whole file and fsyncs it; a seam so tests can stop a write part-way, as a crash would. */
    @FunctionalInterface
    interface FileWrite {
        void writeAndForce(Path file, byte[] bytes) throws IOException;
    }

    /** Writes through {@code files}: create or truncate, write, fsync. */
    static FileWrite durable(FileOps files) {
        return (file, bytes) -> {
            try (FileChannel channel = files.open(file, EnumSet.of(StandardOpenOption.CREATE,
                    StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE))) {
                ByteBuffer buffer = ByteBuffer.wrap(bytes);
                while (buffer.hasRemaining()) {
                    channel.write(buffer);
                }
                channel.force(true);
            }
        };
    }

    static final FileWrite DURABLE = durable(FileOps.system());

    static final String ENTRY_SUFFIX = ".qentry";
    static final String TEMP_SUFFIX = ".tmp";
    private static final int ID_DIGITS = 20;

    private final Path dir;
    private final FileOps files;
    private final FileWrite fileWrite;

    QuarantineDirectory(Path dir, FileOps files, FileWrite fileWrite) {
        this.dir = dir;
        this.files = files;
        this.fileWrite = fileWrite;
    }

    FileOps files() {
        return files;
    }

    Path path() {
        return dir;
    }

    static String fileName(long id) {
        return String.format("%0" + ID_DIGITS + "d", id) + ENTRY_SUFFIX;
    }

    Path entryFile(long id) {
        return dir.resolve(fileName(id));
    }

    /** The id an entry file name stands for; empty for any name this store would not write. */
    static OptionalLong parseId(String name) {
        if (name.length() != ID_DIGITS + ENTRY_SUFFIX.length() || !name.endsWith(ENTRY_SUFFIX)) {
            return OptionalLong.empty();
        }
        String digits = name.substring(0, ID_DIGITS);
        if (!digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return OptionalLong.empty();
        }
        try {
            return OptionalLong.of(Long.parseLong(digits));
        } catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    static boolean isTemp(String name) {
        return name.endsWith(ENTRY_SUFFIX + TEMP_SUFFIX);
    }

    /** Commits one entry file as described in the class doc; on failure nothing is committed. */
    void write(long id, byte[] bytes) throws IOException {
        Path target = entryFile(id);
        Path temp = dir.resolve(fileName(id) + TEMP_SUFFIX);
        try {
            fileWrite.writeAndForce(temp, bytes);
            files.move(temp, target);
        } catch (IOException e) {
            deleteQuietly(temp, e);
            throw new IOException("could not write quarantine entry " + target + ": " + e.getMessage()
                    + "; nothing was stored, check free space and permissions of " + dir, e);
        }
        try {
            files.syncDirectory(dir);
        } catch (IOException e) {
            deleteQuietly(target, e);
            throw new IOException("could not fsync quarantine directory " + dir + " after writing " + target
                    + ": " + e.getMessage() + "; the entry was not stored, check the disk", e);
        }
    }

    /** Unlinks an entry file (absent is fine); durable only after {@link #sync}. */
    void delete(long id) throws IOException {
        Path file = entryFile(id);
        try {
            files.deleteIfExists(file);
        } catch (IOException e) {
            throw new IOException("could not delete quarantine entry " + file + ": " + e
                    + "; the entry is still stored, check the permissions of " + dir, e);
        }
    }

    void sync() throws IOException {
        try {
            files.syncDirectory(dir);
        } catch (IOException e) {
            throw new IOException("could not fsync quarantine directory " + dir + ": " + e.getMessage()
                    + "; the last removal may come back after a power loss, check the disk", e);
        }
    }

    private void deleteQuietly(Path file, IOException cause) {
        try {
            files.deleteIfExists(file);
        } catch (IOException e) {
            cause.addSuppressed(e);
        }
    }
}
