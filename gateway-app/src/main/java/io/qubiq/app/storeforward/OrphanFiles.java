package io.qubiq.app.storeforward;

import io.qubiq.fileops.OwnerOnly;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * The file operations of discarding and attaching an orphan: a marker written durably (temp file,
 * fsync, atomic rename, directory fsync), a directory moved atomically, a tree deleted. Stateless.
 */
final class OrphanFiles {

    private OrphanFiles() {
    }

    /** Writes {@code text} to {@code file} so that after a crash it is either absent or whole. */
    static void writeDurably(Path file, String text) throws IOException {
        Path temp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.deleteIfExists(temp);
        Files.writeString(OwnerOnly.createFile(temp), text, StandardCharsets.UTF_8);
        try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.WRITE)) {
            channel.force(true);
        }
        move(temp, file);
    }

    /** Moves {@code from} to {@code to} atomically and makes the move durable (the parent's fsync). */
    static void move(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            throw new IOException("cannot move " + from + " to " + to + " atomically: " + e.getMessage(), e);
        }
        syncDirectory(to.getParent());
        if (!from.getParent().equals(to.getParent())) {
            syncDirectory(from.getParent());
        }
    }

    /** Deletes {@code dir} and everything in it; files first, then the directories. Missing is fine. */
    static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try {
            Files.walkFileTree(dir, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
                    Files.deleteIfExists(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path directory, IOException e) throws IOException {
                    Files.deleteIfExists(directory);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("could not delete " + dir + ": " + e.getMessage(), e);
        }
    }

    private static void syncDirectory(Path dir) {
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException e) {
            // some file systems cannot fsync a directory; the rename itself is still atomic
        }
    }
}
