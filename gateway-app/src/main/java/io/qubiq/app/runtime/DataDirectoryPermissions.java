package io.qubiq.app.runtime;

import io.qubiq.fileops.OwnerOnly;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Keeps the data directory to the gateway's user: at start it looks for what other local users could read
 * there, then makes the directory and its top-level folders owner-only ({@code 0700}), which closes every
 * path below them whatever the files' own modes. What the gateway creates later is owner-only already
 * ({@link OwnerOnly}).
 *
 * <p><b>What counts as exposed.</b> An entry readable by its group (or by others) while every directory from
 * the data directory down to it can be entered by that group (or by others): something a local user
 * could have read. A 0644 file inside a 0700 folder is not exposed. The walk is bounded (depth {@value
 * #MAX_DEPTH}, {@value #MAX_ENTRIES} entries) so a large QuestDB tree costs little; it does not follow
 * symbolic links. On a file system without POSIX permissions it finds nothing and changes nothing.
 *
 * <p>Stateless; used by the main thread at start.
 */
final class DataDirectoryPermissions {

    static final int MAX_DEPTH = 4;
    static final int MAX_ENTRIES = 10_000;
    static final int NAMED = 5;

    /** What the walk found: up to {@value #NAMED} paths by name, how many in all, whether it stopped early. */
    record Exposed(List<Path> named, int count, boolean walkCut) {

        /** The warning for the log, or empty when nothing was exposed. */
        Optional<String> warning(Path root) {
            if (count == 0) {
                return Optional.empty();
            }
            StringBuilder text = new StringBuilder();
            text.append(count).append(walkCut ? " or more" : "").append(count == 1 ? " path" : " paths")
                    .append(" in the data directory could be read by other local users (");
            for (int i = 0; i < named.size(); i++) {
                text.append(i == 0 ? "" : ", ").append(root.relativize(named.get(i)));
            }
            if (count > named.size()) {
                text.append(", ...");
            }
            text.append("): the gateway made ").append(root).append(" and its top-level folders owner-only (0700),"
                    + " which closes them; to tighten the files themselves, run: chmod -R go-rwx ").append(root);
            return Optional.of(text.toString());
        }
    }

    private DataDirectoryPermissions() {
    }

    /** Finds what was exposed, then tightens the data directory and its top-level folders. */
    static Exposed secure(Path root) throws IOException {
        Exposed exposed = find(root);
        tightenOwned(root);
        return exposed;
    }

    static Exposed find(Path root) throws IOException {
        if (!OwnerOnly.POSIX) {
            return new Exposed(List.of(), 0, false);
        }
        Walk walk = new Walk();
        Set<PosixFilePermission> rootPermissions = Files.getPosixFilePermissions(root);
        if (rootPermissions.contains(PosixFilePermission.GROUP_READ)
                || rootPermissions.contains(PosixFilePermission.OTHERS_READ)) {
            walk.add(root);
        }
        walk.visit(root, rootPermissions.contains(PosixFilePermission.GROUP_EXECUTE),
                rootPermissions.contains(PosixFilePermission.OTHERS_EXECUTE), 1);
        return new Exposed(List.copyOf(walk.named), walk.count, walk.cut);
    }

    /** The data directory and every folder directly in it: 0700 (files keep their modes). */
    static void tightenOwned(Path root) throws IOException {
        if (!OwnerOnly.POSIX) {
            return;
        }
        OwnerOnly.tighten(root);
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(root)) {
            for (Path entry : entries) {
                if (Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS)) {
                    OwnerOnly.tighten(entry);
                }
            }
        }
    }

    private static final class Walk {
        final List<Path> named = new ArrayList<>();
        int count;
        int seen;
        boolean cut;

        void add(Path path) {
            count++;
            if (named.size() < NAMED) {
                named.add(path);
            }
        }

        void visit(Path dir, boolean groupEnters, boolean othersEnter, int depth) throws IOException {
            if (!groupEnters && !othersEnter) {
                return;
            }
            try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
                for (Path entry : entries) {
                    if (++seen > MAX_ENTRIES) {
                        cut = true;
                        return;
                    }
                    Set<PosixFilePermission> permissions;
                    try {
                        permissions = Files.getPosixFilePermissions(entry, LinkOption.NOFOLLOW_LINKS);
                    } catch (IOException gone) {
                        continue; // removed while we looked
                    }
                    boolean group = groupEnters && permissions.contains(PosixFilePermission.GROUP_READ);
                    boolean others = othersEnter && permissions.contains(PosixFilePermission.OTHERS_READ);
                    if (group || others) {
                        add(entry);
                    }
                    if (Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS)) {
                        if (depth >= MAX_DEPTH) {
                            cut = cut || group || others;
                            continue;
                        }
                        visit(entry, groupEnters && permissions.contains(PosixFilePermission.GROUP_EXECUTE),
                                othersEnter && permissions.contains(PosixFilePermission.OTHERS_EXECUTE), depth + 1);
                        if (cut && seen > MAX_ENTRIES) {
                            return;
                        }
                    }
                }
            }
        }
    }
}
