package io.qubiq.buffer;

import java.io.IOException;

/**
 * The storage under the buffer failed (write, fsync, rename). The buffer's in-memory state is
 * unchanged by the failed step and it stays usable; the operation that threw may be retried. An
 * append that fails while waiting for its fsync may still be stored: treat it as maybe-stored.
 */
public final class BufferIOException extends BufferException {
  private static final long serialVersionUID = 1L;

  public BufferIOException(String message, IOException cause) {
    super(message + ": " + cause, cause);
  }
}
