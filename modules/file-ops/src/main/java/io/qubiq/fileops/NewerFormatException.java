package io.qubiq.fileops;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A store was written by a newer gateway, in a format this one does not read. The store refused to
 * open before changing anything in it; the message names the file, the version found and the one
 * this gateway reads, and the two ways out: run the newer version again, or move the store's
 * directory aside so that this version starts it empty.
 */
public class NewerFormatException extends IOException {
  private static final long serialVersionUID = 1L;

  private final transient Path file;
  private final int found;
  private final int known;

  /**
   * @param file the file that carries the version
   * @param store what the store is, for the message ("buffer", "audit journal")
   * @param found the version in the file
   * @param known the newest version this gateway reads
   * @param aside what to move aside to start empty (the store's directory or file)
   */
  public NewerFormatException(Path file, String store, int found, int known, Path aside) {
    super(store + " " + file + " has format version " + found + ", newer than version " + known
        + " which this gateway reads: it was written by a newer Qubiq. Nothing was changed. Run that"
        + " version again, or move " + aside + " aside to start this " + store + " empty.");
    this.file = file;
    this.found = found;
    this.known = known;
  }

  public Path file() {
    return file;
  }

  public int found() {
    return found;
  }

  public int known() {
    return known;
  }
}
