package io.qubiq.buffer;

import java.util.List;

/**
 * The forwarder's view of a buffer: peek a batch from the head, deliver it, then acknowledge it.
 *
 * <p><b>Threading.</b> Owned by one thread (the forwarder); appenders may run concurrently and
 * their records become visible to the next {@link #peek}. Records dropped by {@link
 * OverflowPolicy#DROP_OLDEST} may vanish between a peek and its acknowledgement; acknowledging
 * them is harmless.
 */
public interface BufferReader {

  /**
   * Returns up to {@code maxRecords} records from the head, oldest first, without removing them.
   * Stops before the record that would take the batch past {@code maxBytes} of payload, but always
   * returns at least one record when the buffer is not empty. Peeking twice without
   * acknowledging returns the same records.
   *
   * @throws BufferCorruptException a record in the segment being written failed its checksum
   *     (damaged memory or disk); older damaged segments are set aside and skipped instead
   */
  List<BufferedRecord> peek(int maxRecords, long maxBytes) throws BufferException;

  /**
   * Consumes every record with a sequence up to and including {@code sequence}. The watermark is
   * written before this returns and synced before any file it frees is deleted, so a crash can
   * replay acknowledged records (at least once) but never lose unacknowledged ones. Acknowledging
   * a sequence at or below the head is a no-op.
   *
   * @throws IllegalArgumentException the sequence was never assigned
   * @throws BufferIOException the watermark could not be written; the head did not move
   */
  void acknowledge(long sequence) throws BufferException;
}
