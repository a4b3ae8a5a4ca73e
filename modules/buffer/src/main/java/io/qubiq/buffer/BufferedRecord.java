package io.qubiq.buffer;

/**
 * One record as read back: its sequence, when it was appended, and its bytes.
 *
 * @param sequence the number assigned at append
 * @param appendTimeMillis wall-clock time of the append, epoch milliseconds
 * @param payload the bytes appended; a private copy the caller may keep
 */
public record BufferedRecord(long sequence, long appendTimeMillis, byte[] payload) {}
