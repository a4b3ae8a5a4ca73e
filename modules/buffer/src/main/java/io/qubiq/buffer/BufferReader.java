package io.qubiq.buffer;

import java.util.List;

/**
 * The forwarder's view of a buffer: peek a batch from the head, deliver it, then acknowledge it.
 *
 * <p><b>Threading.</b> Belongs to one consumer (the forwarder), which may peek ahead on one thread
 * while it acknowledges on another: every method is safe to call concurrently with the others.
 * Appenders may run concurrently and their records become visible to the next peek. Records
 * dropped by {@link OverflowPolicy#DROP_OLDEST} may vanish between a peek and its
 * acknowledgement; acknowledging them is harmless.
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
   * Reads ahead: like {@link #peek}, but returns only records with a sequence above {@code after},
   * so a consumer can fetch the next batch while the one it peeked before is still being delivered
   * (and not yet acknowledged). With {@code after} below the head this is {@link #peek}; past the
   * newest record the list is empty. An empty list may also mean that the records between the head
   * and {@code after} could not be stepped over (damage that {@link #peek} reports or sets aside):
   * a consumer falls back to {@code peek} after acknowledging what it has.
   *
   * @throws BufferCorruptException as for {@link #peek}
   */
  List<BufferedRecord> peekAfter(long after, int maxRecords, long maxBytes) throws BufferException;

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
