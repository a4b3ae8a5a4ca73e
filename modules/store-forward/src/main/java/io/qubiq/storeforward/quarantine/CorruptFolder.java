package io.qubiq.storeforward.quarantine;

import io.qubiq.fileops.FileOps;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The {@code corrupt/} folder inside a quarantine directory: entry files the store will no longer
 * serve, each with a {@code .note} text file beside it saying what was wrong and what to do. The
 * store never reads or deletes anything in it; clearing it is the operator's decision.
 *
 * <p><b>Threading.</b> Callers serialize moves (the store does them under its write lock).
 */
final class CorruptFolder {

    static final String NAME = "corrupt";
    static final String NOTE_SUFFIX = ".note";

    private final Path folder;
    private final FileOps files;

    CorruptFolder(Path quarantineDir, FileOps files) {
        this.folder = quarantineDir.resolve(NAME);
        this.files = files;
    }

    Path path() {
        return folder;
    }

    /**
     * Moves {@code file} here (same file system, atomic rename) and writes its note. Empty when the
     * move itself failed: the file is then left where it was.
     */
    Optional<Path> moveAside(Path file, String note) {
        Path target;
        try {
            files.createDirectories(folder);
            target = freeName(file.getFileName().toString());
            files.move(file, target);
        } catch (IOException e) {
            return Optional.empty();
        }
        try {
            Files.writeString(target.resolveSibling(target.getFileName() + NOTE_SUFFIX),
                    note + System.lineSeparator(), StandardCharsets.UTF_8);
            files.syncDirectory(folder);
        } catch (IOException e) {
            // The entry is aside either way; a missing note loses an explanation, not data.
        }
        return Optional.of(target);
    }

    private Path freeName(String name) {
        Path target = folder.resolve(name);
        for (int n = 1; Files.exists(target); n++) {
            target = folder.resolve(name + "." + n);
        }
        return target;
    }
}
