package io.qubiq.buffer;

/**
 * The buffer is at its byte limit and its policy is {@link OverflowPolicy#REFUSE}: nothing was
 * stored. The backlog is kept; the caller fails the write visibly or retries after the forwarder
 * drains.
 */
public final class BufferFullException extends BufferException {
  private static final long serialVersionUID = 1L;
  private final long usedBytes;
  private final long limitBytes;

  public BufferFullException(long usedBytes, long limitBytes, long requestedBytes) {
    super(
        "buffer full: "
            + usedBytes
            + " of "
            + limitBytes
            + " bytes used, "
            + requestedBytes
            + " more requested; the oldest records are kept (policy REFUSE)",
        null);
    this.usedBytes = usedBytes;
    this.limitBytes = limitBytes;
  }

  /** Bytes in use when the append was refused. */
  public long usedBytes() {
    return usedBytes;
  }

  /** The configured limit, {@link BufferOptions#maxBytes()}. */
  public long limitBytes() {
    return limitBytes;
  }
}
