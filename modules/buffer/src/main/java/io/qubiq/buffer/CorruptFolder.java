package io.qubiq.buffer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.Optional;

/**
 * The {@code corrupt/} folder inside a buffer directory: data the buffer will not replay, kept for
 * an operator with a {@code .note.txt} beside each file saying what was wrong and what was lost.
 * Nothing in it is ever read or deleted by the buffer.
 *
 * <p><b>Threading.</b> Stateless apart from the path; callers serialize per file.
 */
final class CorruptFolder {
  static final String NAME = "corrupt";
  private final Path folder;

  CorruptFolder(Path bufferDir) {
    this.folder = bufferDir.resolve(NAME);
  }

  /** Moves a file here; empty if even that failed (the file is then left in place). */
  Optional<Path> moveAside(Path file, String note) {
    try {
      Path target = target(file);
      Files.move(file, target, StandardCopyOption.ATOMIC_MOVE);
      writeNote(target, note);
      return Optional.of(target);
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /** Copies a file here (the original stays in use); empty if the copy failed. */
  Optional<Path> copyAside(Path file, String note) {
    try {
      Path target = target(file);
      Files.copy(file, target);
      writeNote(target, note);
      return Optional.of(target);
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  private Path target(Path file) throws IOException {
    Files.createDirectories(folder);
    String stamp = Instant.now().toString().replace(':', '-');
    Path target = folder.resolve(file.getFileName() + "." + stamp);
    for (int n = 1; Files.exists(target); n++) {
      target = folder.resolve(file.getFileName() + "." + stamp + "-" + n);
    }
    return target;
  }

  private static void writeNote(Path target, String note) throws IOException {
    Files.writeString(target.resolveSibling(target.getFileName() + ".note.txt"),
        note + System.lineSeparator(), StandardCharsets.UTF_8);
  }
}
