package io.qubiq.buffer;

import java.io.IOException;

/**
 * The storage under the buffer failed (write, fsync, rename). The buffer's in-memory state is
 * unchanged by the failed step and it stays usable; the operation that threw may be retried. An
 * append that fails while waiting for its fsync may still be stored: treat it as maybe-stored.
 *
 * <p>{@link #diskFull()} tells a full disk apart (see {@link DiskFull}); the message then says "the
 * disk is full". A batch append that failed part way says how many of its records were stored
 * ({@link #storedRecords()}: the first ones, in order).
 */
public final class BufferIOException extends BufferException {
  private static final long serialVersionUID = 1L;
  private final boolean diskFull;
  private final int storedRecords;

  public BufferIOException(String message, IOException cause) {
    this(message, cause, 0);
  }

  /** @param storedRecords how many records of the failed call were stored before it failed */
  public BufferIOException(String message, IOException cause, int storedRecords) {
    super(DiskFull.describe(message, cause), cause);
    this.diskFull = DiskFull.causedBy(cause);
    this.storedRecords = storedRecords;
  }

  /** True when the storage failed because the disk (or a quota) is full. */
  public boolean diskFull() {
    return diskFull;
  }

  /** Records of the failed call that were stored anyway (a batch cut short); 0 for other calls. */
  public int storedRecords() {
    return storedRecords;
  }
}
