package io.qubiq.fileops;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;

/**
 * The permissions of what the gateway creates in its data directory: readable and writable by the
 * gateway's user only, directories {@code 0700}, files {@code 0600}. Java cannot set a process umask, so
 * every place that creates a file or directory there asks for these permissions at creation ({@link
 * #fileAttribute()}, {@link #createDirectories}), and what existed before can be tightened ({@link #tighten}).
 *
 * <p>On a file system without POSIX permissions (Windows) every method does the plain thing and nothing
 * more: there the directory's ACL decides. Stateless; safe for concurrent use.
 */
public final class OwnerOnly {

    /** Whether the default file system has POSIX permissions. */
    public static final boolean POSIX = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
    /** {@code rwx------}. */
    public static final Set<PosixFilePermission> DIRECTORY = PosixFilePermissions.fromString("rwx------");
    /** {@code rw-------}. */
    public static final Set<PosixFilePermission> FILE = PosixFilePermissions.fromString("rw-------");
    private static final Set<PosixFilePermission> GROUP_OR_OTHERS = EnumSet.of(
            PosixFilePermission.GROUP_READ, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE,
            PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE);

    private OwnerOnly() {
    }

    /** The attributes that make a new file {@code 0600}: none without POSIX. */
    public static FileAttribute<?>[] fileAttribute() {
        return POSIX ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(FILE)} : new FileAttribute<?>[0];
    }

    /** Creates {@code dir} and its missing parents, each new one {@code 0700}; an existing one is left as it is. */
    public static Path createDirectories(Path dir) throws IOException {
        if (!POSIX || Files.isDirectory(dir)) {
            return Files.createDirectories(dir);
        }
        Path parent = dir.toAbsolutePath().getParent();
        if (parent != null && !Files.exists(parent)) {
            createDirectories(parent);
        }
        try {
            Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(DIRECTORY));
        } catch (FileAlreadyExistsException e) {
            if (!Files.isDirectory(dir)) {
                throw e;
            }
        }
        return dir;
    }

    /** Creates an empty file {@code 0600} unless it exists; returns it. */
    public static Path createFile(Path file) throws IOException {
        try {
            Files.createFile(file, fileAttribute());
        } catch (FileAlreadyExistsException e) {
            // kept as it is; tighten it if needed
        }
        return file;
    }

    /** Takes every group and others permission off {@code path} (a file or a directory); true if it had any. */
    public static boolean tighten(Path path) throws IOException {
        if (!POSIX) {
            return false;
        }
        Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(path);
        if (permissions.stream().noneMatch(GROUP_OR_OTHERS::contains)) {
            return false;
        }
        Set<PosixFilePermission> owner = EnumSet.copyOf(permissions);
        owner.removeAll(GROUP_OR_OTHERS);
        Files.setPosixFilePermissions(path, owner);
        return true;
    }
}
