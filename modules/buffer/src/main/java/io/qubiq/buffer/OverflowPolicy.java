package io.qubiq.buffer;

/** What an append does when the buffer is at {@link BufferOptions#maxBytes()}. */
public enum OverflowPolicy {
  /** Advance the head past the oldest records until the new one fits; every drop is counted. */
  DROP_OLDEST,
  /** Keep the backlog and fail the append with {@link BufferFullException}. */
  REFUSE
}
