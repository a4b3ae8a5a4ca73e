package io.qubiq.auth;

import io.qubiq.fileops.FileOps;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.EnumSet;

/**
 * Replaces a small file as a whole, so a reader sees either the old or the new content, never a mix.
 *
 * <p>Steps: write {@code <name>.tmp} beside the target, fsync it, rename it over the target
 * atomically, fsync the directory so the rename itself is durable. A crash before the rename leaves
 * the old file untouched plus a stray temp file, which {@link #discardLeftover} deletes on the next
 * start; a crash after it leaves the new file. The file is committed when {@link #replace} returns.
 *
 * <p>Every change goes through a {@link FileOps} (the power-loss tests record it).
 *
 * <p>Not thread-safe: callers serialize writes to one target (the stores hold their lock).
 */
final class AtomicFile {

    /** Runs between the synced temp write and the rename; tests use it to stand for a crash there. */
    interface BeforeRename {
        BeforeRename NOTHING = temp -> { };

        void run(Path temp) throws IOException;
    }

    private final Path target;
    private final Path temp;
    private final FileOps files;
    private final BeforeRename beforeRename;

    AtomicFile(Path target, FileOps files, BeforeRename beforeRename) {
        this.target = target;
        this.files = files;
        this.temp = target.resolveSibling(target.getFileName() + ".tmp");
        this.beforeRename = beforeRename;
    }

    Path target() {
        return target;
    }

    /** Deletes a temp file left by a crash mid-write; the target itself is never touched. */
    void discardLeftover() throws IOException {
        files.deleteIfExists(temp);
    }

    void replace(byte[] content) throws IOException {
        try (FileChannel channel = files.open(temp, EnumSet.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING))) {
            ByteBuffer buffer = ByteBuffer.wrap(content);
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
            channel.force(true);
        }
        beforeRename.run(temp);
        files.move(temp, target);
        syncDirectory(target.toAbsolutePath().getParent());
    }

    private void syncDirectory(Path directory) {
        try {
            files.syncDirectory(directory);
        } catch (IOException notSupported) {
            // Some platforms (Windows) cannot open a directory; the rename is still atomic there.
        }
    }
}
