package io.qubiq.buffer;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A {@link DurableBuffer} in memory: the same contract (sequences, limits, watermark events, one
 * reader), with nothing surviving the process. For tests and for connections configured without
 * a buffer directory. Durability options are ignored; {@link #sync()} does nothing.
 *
 * <p><b>Threading.</b> Every method synchronizes on the buffer; the reader is for one consumer
 * (whose peeks and acknowledgements may come from different threads).
 */
public final class MemoryBuffer implements DurableBuffer {
  private final BufferOptions options;
  private final Occupancy occupancy;
  private final ArrayDeque<BufferedRecord> records = new ArrayDeque<>();
  private final BufferReader reader = new Reader();
  private long nextSequence = 1;
  private long dropped;
  private boolean closed;

  private MemoryBuffer(BufferOptions options, WatermarkListener listener) {
    this.options = options;
    this.occupancy = new Occupancy(options, listener);
    occupancy.statsFrom(this::stats);
  }

  /** A new, empty buffer; {@code options.dir()} and durability are ignored. */
  public static MemoryBuffer create(BufferOptions options, WatermarkListener listener) {
    return new MemoryBuffer(options, listener);
  }

  @Override
  public synchronized long append(byte[] payload) throws BufferException {
    return appendBatch(List.of(payload)).first();
  }

  @Override
  public synchronized void reserveSequencesThrough(long used) {
    if (closed) {
      throw new IllegalStateException("buffer is closed");
    }
    nextSequence = Math.max(nextSequence, used + 1);
  }

  @Override
  public CompletableFuture<Long> appendAsync(byte[] payload) throws BufferException {
    return CompletableFuture.completedFuture(append(payload));
  }

  @Override
  public synchronized SequenceRange appendBatch(List<byte[]> payloads) throws BufferException {
    if (closed) {
      throw new IllegalStateException("buffer is closed");
    }
    if (payloads.isEmpty()) {
      throw new IllegalArgumentException("empty batch");
    }
    long total = 0;
    for (byte[] payload : payloads) {
      if (payload.length == 0) {
        throw new IllegalArgumentException("empty payload");
      }
      int frame = RecordFormat.frameBytes(payload.length);
      if (frame > options.segmentBytes() - SegmentHeader.BYTES) {
        throw new IllegalArgumentException("record of " + payload.length
            + " bytes does not fit one segment (segment_bytes " + options.segmentBytes() + ")");
      }
      total += frame;
    }
    if (total > options.maxBytes()) {
      throw new IllegalArgumentException("batch of " + total + " bytes exceeds max_bytes");
    }
    if (!occupancy.fits(total)) {
      if (options.overflowPolicy() == OverflowPolicy.REFUSE) {
        throw new BufferFullException(occupancy.bytes(), occupancy.limit(), total);
      }
      while (!occupancy.fits(total) && !records.isEmpty()) {
        BufferedRecord oldest = records.removeFirst();
        dropped++;
        occupancy.removed(RecordFormat.frameBytes(oldest.payload().length), 1);
      }
    }
    long first = nextSequence;
    long now = System.currentTimeMillis(); // once per batch: no need for the ticking CoarseClock
    for (byte[] payload : payloads) {
      records.addLast(new BufferedRecord(nextSequence++, now, payload.clone()));
      occupancy.added(RecordFormat.frameBytes(payload.length), 1);
    }
    return new SequenceRange(first, nextSequence - 1);
  }

  @Override
  public BufferReader reader() {
    return reader;
  }

  @Override
  public synchronized BufferStats stats() {
    BufferedRecord head = records.peekFirst();
    long tail = nextSequence - 1;
    return new BufferStats(occupancy.bytes(), options.maxBytes(), occupancy.records(),
        Optional.ofNullable(head).map(r -> Instant.ofEpochMilli(r.appendTimeMillis())),
        head == null ? tail + 1 : head.sequence(), tail, dropped, 0, 0, 0);
  }

  @Override
  public void sync() {
    // Nothing to make durable.
  }

  @Override
  public void holdSize(boolean hold) {
    occupancy.hold(hold, options.segmentBytes());
  }

  @Override
  public RecoveryReport recoveryReport() {
    return RecoveryReport.empty();
  }

  @Override
  public synchronized void close() {
    closed = true;
    records.clear();
  }

  private final class Reader implements BufferReader {
    @Override
    public List<BufferedRecord> peek(int maxRecords, long maxBytes) {
      return peekAfter(Long.MIN_VALUE, maxRecords, maxBytes);
    }

    @Override
    public List<BufferedRecord> peekAfter(long after, int maxRecords, long maxBytes) {
      if (maxRecords <= 0 || maxBytes <= 0) {
        throw new IllegalArgumentException("maxRecords and maxBytes must be positive");
      }
      synchronized (MemoryBuffer.this) {
        if (closed) {
          throw new IllegalStateException("buffer is closed");
        }
        List<BufferedRecord> batch = new ArrayList<>();
        long bytes = 0;
        for (Iterator<BufferedRecord> it = records.iterator(); it.hasNext()
            && batch.size() < maxRecords; ) {
          BufferedRecord r = it.next();
          if (r.sequence() <= after) {
            continue;
          }
          if (!batch.isEmpty() && bytes + r.payload().length > maxBytes) {
            break;
          }
          bytes += r.payload().length;
          batch.add(new BufferedRecord(r.sequence(), r.appendTimeMillis(), r.payload().clone()));
        }
        return batch;
      }
    }

    @Override
    public void acknowledge(long sequence) {
      synchronized (MemoryBuffer.this) {
        if (closed) {
          throw new IllegalStateException("buffer is closed");
        }
        if (sequence >= nextSequence) {
          throw new IllegalArgumentException("cannot acknowledge " + sequence
              + ": the newest record is " + (nextSequence - 1));
        }
        while (!records.isEmpty() && records.peekFirst().sequence() <= sequence) {
          BufferedRecord r = records.removeFirst();
          occupancy.removed(RecordFormat.frameBytes(r.payload().length), 1);
        }
      }
    }
  }
}
