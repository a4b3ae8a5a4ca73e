package io.qubiq.buffer;

import java.nio.file.Path;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * The disk buffer's single reader: peeks through the chain (every record's CRC32C is checked on
 * the way out) and acknowledges through it (watermark first, then the head moves, then fully
 * consumed segments are trimmed).
 *
 * <p><b>Threading.</b> Used by the forwarder (peeks and acknowledgements may come from its two
 * threads); every call takes the chain lock, which orders it against the other calls and against
 * appenders that roll segments or drop the oldest records.
 */
final class SegmentReader implements BufferReader {
  private final SegmentChain chain;
  private final Path dir;
  private final BooleanSupplier closed;
  private final LongSupplier tailSequence;

  SegmentReader(SegmentChain chain, Path dir, BooleanSupplier closed, LongSupplier tailSequence) {
    this.chain = chain;
    this.dir = dir;
    this.closed = closed;
    this.tailSequence = tailSequence;
  }

  @Override
  public List<BufferedRecord> peek(int maxRecords, long maxBytes) throws BufferException {
    checkOpen();
    return chain.peek(maxRecords, maxBytes);
  }

  @Override
  public List<BufferedRecord> peekAfter(long after, int maxRecords, long maxBytes) throws BufferException {
    checkOpen();
    return chain.peekAfter(after, maxRecords, maxBytes);
  }

  @Override
  public void acknowledge(long sequence) throws BufferException {
    checkOpen();
    long tail = tailSequence.getAsLong();
    if (sequence > tail && sequence > newestPublished()) {
      throw new IllegalArgumentException("cannot acknowledge " + sequence
          + ": the newest record is " + tail);
    }
    chain.acknowledge(sequence);
  }

  /**
   * The newest record readers can see. An append publishes its record before it advances the
   * tail, so a peek can return a record one above the tail; it may be acknowledged.
   */
  private long newestPublished() {
    List<Segment> segments = chain.snapshot();
    return segments.isEmpty() ? Long.MIN_VALUE : segments.get(segments.size() - 1).lastSequence();
  }

  private void checkOpen() {
    if (closed.getAsBoolean()) {
      throw new IllegalStateException("buffer " + dir + " is closed");
    }
  }
}
