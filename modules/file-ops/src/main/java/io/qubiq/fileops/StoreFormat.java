package io.qubiq.fileops;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.EnumSet;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The format version of a store kept in a directory (a channel's buffer, its quarantine, the audit
 * journal), in one line of text beside the data, file {@value #FILE_NAME}:
 *
 * <pre>
 * qubiq-buffer format 1
 * </pre>
 *
 * <p><b>The rule for every later version.</b> The line's syntax never changes. A gateway that
 * writes anything an older one cannot read raises the number before it writes that thing, so an
 * older gateway meets the higher number first and refuses ({@link #check}) instead of taking the
 * new data for damage and setting it aside.
 *
 * <p><b>Reading.</b> {@link #check} only reads. No file: a new directory, or a store from before
 * the marker existed (all of those were version 1), so there is nothing to refuse. A higher
 * version: {@link NewerFormatException}, with nothing changed. Another store's name: an {@link
 * IOException} naming both (a buffer never opens an audit journal's directory). A line that cannot
 * be read at all is damage, not a refusal (a store must open despite damage): {@link Check#damaged}
 * says so and {@link #record} replaces it.
 *
 * <p><b>Writing.</b> {@link #record} writes the current line when the file is missing, damaged or
 * older: to {@code FORMAT.tmp}, forced, renamed over {@code FORMAT}, then the directory is forced,
 * every step through the store's {@link FileOps}. A crash leaves the old file, the new one, or none
 * (then the next open writes it), never a torn one; a leftover temp file is overwritten.
 *
 * <p>Stateless and immutable; a store calls it under its own directory lock.
 */
public final class StoreFormat {

  public static final String FILE_NAME = "FORMAT";
  private static final Pattern LINE = Pattern.compile("([a-z][a-z0-9-]*) format ([0-9]{1,9})\n?");

  /** What {@link #check} found. */
  public record Check(Optional<Integer> version, boolean damaged) {
    /** True when {@link #record} has something to write. */
    boolean needsWrite(int current) {
      return damaged || version.isEmpty() || version.get() < current;
    }
  }

  private final String name;
  private final String title;
  private final int version;

  /**
   * @param name the store's name in the file, {@code qubiq-buffer}
   * @param title the store for messages, "buffer"
   * @param version the version this gateway writes and the newest it reads
   */
  public StoreFormat(String name, String title, int version) {
    if (!LINE.matcher(name + " format " + version).matches() || version < 1) {
      throw new IllegalArgumentException("not a store name and version: " + name + " " + version);
    }
    this.name = name;
    this.title = title;
    this.version = version;
  }

  public int version() {
    return version;
  }

  /**
   * Reads {@code dir}'s format file, changing nothing.
   *
   * @throws NewerFormatException the store was written by a newer gateway
   * @throws IOException the directory holds another kind of store, or the file cannot be read
   */
  public Check check(Path dir) throws IOException {
    Path file = dir.resolve(FILE_NAME);
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      return new Check(Optional.empty(), false);
    }
    Matcher line = LINE.matcher(new String(bytes, StandardCharsets.UTF_8));
    if (bytes.length > 64 || !line.matches()) {
      return new Check(Optional.empty(), true);
    }
    if (!line.group(1).equals(name)) {
      throw new IOException(file + " says this directory holds a " + line.group(1) + " store, not a "
          + name + " store; nothing was changed. Check the configured path, or move " + dir + " aside.");
    }
    int found = Integer.parseInt(line.group(2));
    if (found > version) {
      throw new NewerFormatException(file, title, found, version, dir);
    }
    return new Check(Optional.of(found), false);
  }

  /**
   * Writes the current version into {@code dir} when {@code found} (what {@link #check} answered)
   * shows it missing, damaged or older; durable on return.
   */
  public void record(Path dir, Check found, FileOps files) throws IOException {
    if (!found.needsWrite(version)) {
      return;
    }
    Path temp = dir.resolve(FILE_NAME + ".tmp");
    try (FileChannel channel = files.open(temp, EnumSet.of(StandardOpenOption.CREATE,
        StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE))) {
      ByteBuffer line = ByteBuffer.wrap((name + " format " + version + "\n")
          .getBytes(StandardCharsets.UTF_8));
      while (line.hasRemaining()) {
        channel.write(line);
      }
      channel.force(true);
    }
    files.move(temp, dir.resolve(FILE_NAME));
    files.syncDirectory(dir);
  }

  /** The line this gateway writes, for docs and tests. */
  public String line() {
    return name + " format " + version;
  }
}
