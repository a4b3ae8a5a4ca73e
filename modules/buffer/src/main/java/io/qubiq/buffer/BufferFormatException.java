package io.qubiq.buffer;

import io.qubiq.fileops.NewerFormatException;

/**
 * The buffer was written by a newer gateway (its {@code FORMAT} file or a segment header says a
 * newer version). Open stopped before changing anything; the message names the file, both versions
 * and the ways out.
 */
public final class BufferFormatException extends BufferException {
  private static final long serialVersionUID = 1L;

  public BufferFormatException(NewerFormatException cause) {
    super(cause.getMessage(), cause);
  }
}
