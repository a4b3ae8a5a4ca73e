package io.qubiq.buffer;

/** The root of the buffer's typed failures; catch the subclass whose remedy you apply. */
public abstract class BufferException extends Exception {
  private static final long serialVersionUID = 1L;

  protected BufferException(String message, Throwable cause) {
    super(message, cause);
  }
}
