package io.qubiq.buffer;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * What opening a buffer found, for the log line and the metrics of its owner.
 *
 * @param cleanShutdown the previous owner closed the buffer cleanly, so segments were trusted
 *     without a scan
 * @param segmentsTrusted segments whose seal (record count and end) was trusted without a scan
 * @param segmentsScanned segments whose records were validated one by one
 * @param recordsRecovered unconsumed records available to the reader after open
 * @param bytesDiscarded bytes after the last valid record of a segment, or in set-aside segments,
 *     that recovery will never replay
 * @param findings each torn tail, corrupt record, bad header or chain gap, in file order
 * @param took how long recovery ran
 */
public record RecoveryReport(
    boolean cleanShutdown,
    int segmentsTrusted,
    int segmentsScanned,
    long recordsRecovered,
    long bytesDiscarded,
    List<Finding> findings,
    Duration took) {

  public RecoveryReport {
    findings = List.copyOf(findings);
  }

  /** The report of a buffer that had nothing to recover. */
  public static RecoveryReport empty() {
    return new RecoveryReport(true, 0, 0, 0, 0, List.of(), Duration.ZERO);
  }

  /** True when nothing was discarded or set aside. */
  public boolean intact() {
    return findings.isEmpty();
  }

  /** The first finding's reason, the headline for a log line; empty when intact. */
  public Optional<Reason> reason() {
    return findings.stream().map(Finding::reason).findFirst();
  }

  /** Why data was discarded or set aside. */
  public enum Reason {
    /** The last record of the newest segment was partly written: an interrupted append. */
    TORN_TAIL,
    /** A record failed its length, sequence or CRC32C check with data after it. */
    CORRUPT_RECORD,
    /** A segment's header was unreadable; the whole file was set aside. */
    CORRUPT_HEADER,
    /** Records between two segments (or before the first one) are missing. */
    CHAIN_GAP,
    /** Neither slot of the ack watermark was readable: replay starts at the oldest record. */
    ACK_DAMAGED,
    /** The newest segment named by the sequence floor is missing: its records are lost. */
    MISSING_SEGMENT
  }

  /** Unacknowledged records every finding together cost (torn tails cost none: never returned). */
  public long recordsLost() {
    return findings.stream().mapToLong(Finding::recordsLost).sum();
  }

  /**
   * One problem recovery handled.
   *
   * @param reason the kind of problem
   * @param file the segment it was found in
   * @param offset byte offset of the first untrusted byte in that file
   * @param bytesDiscarded bytes that will not be replayed because of it
   * @param setAside where a copy of the untrusted data was put, with a note beside it
   * @param detail one human sentence
   * @param firstLost first unacknowledged sequence lost to it (above {@code lastLost} when none
   *     was, or when the count is unknown: an interrupted append was never acknowledged)
   * @param lastLost last unacknowledged sequence lost to it
   */
  public record Finding(
      Reason reason,
      Path file,
      long offset,
      long bytesDiscarded,
      Optional<Path> setAside,
      String detail,
      long firstLost,
      long lastLost) {

    /** A finding that cost no unacknowledged record. */
    public Finding(Reason reason, Path file, long offset, long bytesDiscarded,
        Optional<Path> setAside, String detail) {
      this(reason, file, offset, bytesDiscarded, setAside, detail, 1, 0);
    }

    /** Unacknowledged records lost to this finding. */
    public long recordsLost() {
      return Math.max(0, lastLost - firstLost + 1);
    }
  }
}
