package io.qubiq.buffer;

import java.nio.file.Path;

/**
 * Bytes that should be valid failed their checks in a place the buffer cannot set aside on its own
 * (the segment being written). Names the file and offset and what the operator should do.
 */
public final class BufferCorruptException extends BufferException {
  private static final long serialVersionUID = 1L;
  private final transient Path file;
  private final long offset;

  public BufferCorruptException(Path file, long offset, String detail) {
    super(
        detail
            + " in "
            + file
            + " at offset "
            + offset
            + "; close the buffer and reopen it: recovery keeps the valid prefix and moves the"
            + " rest to corrupt/",
        null);
    this.file = file;
    this.offset = offset;
  }

  public Path file() {
    return file;
  }

  public long offset() {
    return offset;
  }
}
