package io.qubiq.buffer;

/**
 * The contiguous sequence numbers given to one batch.
 *
 * @param first sequence of the batch's first record
 * @param last sequence of its last record, {@code first + count - 1}
 */
public record SequenceRange(long first, long last) {
  public SequenceRange {
    if (last < first) {
      throw new IllegalArgumentException("empty range " + first + ".." + last);
    }
  }

  /** Number of records in the range. */
  public long count() {
    return last - first + 1;
  }
}
