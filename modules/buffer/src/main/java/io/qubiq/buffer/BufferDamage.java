package io.qubiq.buffer;

import java.nio.file.Path;
import java.util.Optional;

/**
 * Damaged data a buffer stepped over while reading: what it cost and where the evidence is.
 *
 * @param file the segment the damage is in
 * @param offset byte offset of the first damaged byte in that file
 * @param bytes bytes that will never be read again because of it
 * @param firstLost first unacknowledged sequence lost (above {@code lastLost} when none was: the
 *     damage lay in records already acknowledged)
 * @param lastLost last unacknowledged sequence lost
 * @param setAside where a copy of the file was put before it was repaired, with a note beside it
 * @param detail one human sentence
 */
public record BufferDamage(Path file, long offset, long bytes, long firstLost, long lastLost,
    Optional<Path> setAside, String detail) {

  /** Unacknowledged records this damage cost; 0 when it lay in acknowledged ones. */
  public long recordsLost() {
    return Math.max(0, lastLost - firstLost + 1);
  }
}
