package io.qubiq.buffer;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * An ordered, bounded buffer of opaque records with one consumer.
 *
 * <p><b>Threading.</b> {@link #append}, {@link #appendAsync}, {@link #appendBatch}, {@link #stats}
 * and {@link #sync} are safe for any number of concurrent threads. The {@link #reader()} belongs to one consumer, the
 * forwarder, which may read ahead on a second thread (see {@link BufferReader}). {@link #close()} may be called from any thread once; appends racing with it
 * either complete or fail with {@link IllegalStateException}.
 *
 * <p><b>Sequences.</b> Every record gets a sequence number greater than every earlier one. Numbers
 * are never reused: not after a drop, an acknowledgement or a restart. A batch gets a contiguous
 * range. Gaps are possible (after recovery set data aside), so never compute a count from them.
 *
 * <p><b>Limits.</b> Each record counts {@link RecordFormat#frameBytes(int)} bytes (payload plus a
 * 24-byte header, rounded up to 8) against {@link BufferOptions#maxBytes()}, in both
 * implementations, so the same options behave the same in memory and on disk.
 */
public interface DurableBuffer extends AutoCloseable {

  /**
   * Appends one record. Returns once the record is readable and, with {@link Durability#ALWAYS},
   * on stable storage.
   *
   * @param payload one or more bytes; the buffer keeps its own copy
   * @return the record's sequence number
   * @throws BufferFullException the buffer is at its limit and its policy is {@link
   *     OverflowPolicy#REFUSE}; nothing was stored
   * @throws BufferIOException the storage failed; with {@code ALWAYS} the record may be stored
   *     but is not known to be durable (treat as maybe-stored)
   * @throws IllegalArgumentException empty payload, or larger than one segment can hold
   */
  long append(byte[] payload) throws BufferException;

  /**
   * Appends records as one unit: either all get contiguous sequence numbers or none is stored
   * (for {@link BufferFullException}). With {@code ALWAYS} one fsync covers the batch.
   */
  SequenceRange appendBatch(List<byte[]> payloads) throws BufferException;

  /**
   * Appends one record without waiting for its fsync: the record is stored and readable when this
   * returns, and the future completes with its sequence once it is as durable as the mode
   * promises (at once for {@link Durability#NONE} and {@link Durability#PERIODIC}; after the fsync
   * that covers it for {@link Durability#ALWAYS}, or exceptionally with {@link BufferIOException}
   * when that fsync fails). A producer that keeps many appends in flight this way lets one fsync
   * carry many records.
   *
   * @throws BufferFullException as {@link #append}; nothing was stored
   */
  CompletableFuture<Long> appendAsync(byte[] payload) throws BufferException;

  /**
   * Makes every later record's sequence greater than {@code used}: the owner keeps sequences
   * elsewhere too (a quarantine keys its entries by them) and must never see one issued twice,
   * even when this buffer's own files were lost. Durable before it returns (for a disk buffer);
   * does nothing when the next sequence is already above {@code used}.
   */
  void reserveSequencesThrough(long used) throws BufferException;

  /** The bytes one record of {@code payloadBytes} counts against {@link BufferOptions#maxBytes()}. */
  static int recordBytes(int payloadBytes) {
    return RecordFormat.frameBytes(payloadBytes);
  }

  /** The single reader. Every call returns the same instance. */
  BufferReader reader();

  /** A consistent-enough snapshot of size, age and positions; cheap, for metrics. */
  BufferStats stats();

  /**
   * Forces everything appended so far to stable storage, whatever the durability mode.
   *
   * @throws BufferIOException the fsync failed
   */
  void sync() throws BufferException;

  /**
   * While {@code hold} is true the buffer does not grow: its limit is, in effect, the bytes it held
   * when the hold began (at least one segment, space a disk buffer has already allocated), and
   * appends beyond it behave as at {@link BufferOptions#maxBytes()} per the overflow policy (drop
   * the oldest records, or refuse). Room the reader frees may be filled again. For a disk that is
   * almost full. Idempotent; safe from any thread.
   */
  void holdSize(boolean hold);

  /** What recovery found when this buffer was opened; clean for a memory buffer. */
  RecoveryReport recoveryReport();

  /** Flushes, marks the shutdown clean and releases the directory. Idempotent. */
  @Override
  void close() throws BufferException;
}
