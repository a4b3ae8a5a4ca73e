package io.qubiq.storeforward;

import io.qubiq.buffer.BufferException;
import io.qubiq.buffer.BufferReader;
import io.qubiq.buffer.BufferedRecord;
import io.qubiq.core.sink.ItemCodec;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The forwarder's read-ahead: while one batch is written and flushed, the next one is read from
 * the buffer and decoded on a second thread, so that the forwarder thread, which waits for every
 * flush, spends its time on little besides the write.
 *
 * <p>Reading ahead never changes what is delivered or when it is acknowledged. It only reads:
 * {@link BufferReader#peekAfter} returns records after the batch in hand without consuming them,
 * and {@link PreparedBatch#prepare} has no side effects. The forwarder still writes one batch at a
 * time, acknowledges only after the sink returned, and on any outcome but full success asks again
 * from what it acknowledged last: the batch read ahead is then thrown away and the head is read
 * afresh (head-of-line retry). Records dropped oldest-first while read ahead may still be
 * delivered once, as they may between a peek and its acknowledgement.
 *
 * <p><b>Threading.</b> {@link #fetch} and {@link #discard} are called by the forwarder's thread only
 * (one at a time: a restarted forwarder's new thread is started by the old one), {@link #close} by
 * the channel once that thread has ended;
 * the read-ahead runs on one daemon thread, {@code forwarder-<connection>-read-ahead}. The buffer
 * reader and the codec are safe for this (peeks and acknowledgements take the buffer's lock; codecs
 * are thread-safe by contract of their use on producer threads).
 */
final class ReadAhead<T> implements AutoCloseable {

    private final BufferReader reader;
    private final ItemCodec<T> codec;
    private final boolean encoded;
    private final int maxItems;
    private final long maxBytes;
    private final ExecutorService thread;
    /** The batch being read after {@link #aheadAfter}, if any. Forwarder thread only. */
    private Future<PreparedBatch<T>> ahead;
    private long aheadAfter;

    /** @param encoded whether the sink writes items as bytes: unwrap them without decoding */
    ReadAhead(String connection, BufferReader reader, ItemCodec<T> codec, boolean encoded, int maxItems,
              long maxBytes) {
        this.reader = reader;
        this.codec = codec;
        this.encoded = encoded;
        this.maxItems = maxItems;
        this.maxBytes = maxBytes;
        this.thread = Executors.newSingleThreadExecutor(task -> {
            Thread t = new Thread(task, "forwarder-" + connection + "-read-ahead");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * The decoded batch of records after sequence {@code after} (from the head when {@code after} is
     * below it; {@link Long#MIN_VALUE} for "from the head"), and starts reading the batch after it.
     * Uses the batch read ahead when it was read after the same sequence and is not empty; otherwise
     * reads on the calling thread.
     */
    PreparedBatch<T> fetch(long after) throws BufferException, InterruptedException {
        PreparedBatch<T> batch = null;
        if (ahead != null) {
            Future<PreparedBatch<T>> pending = ahead;
            ahead = null;
            if (aheadAfter == after) {
                batch = await(pending);
            } else {
                pending.cancel(false);
            }
        }
        if (batch == null || batch.isEmpty()) {
            batch = read(after);
        }
        if (!batch.isEmpty()) {
            long next = batch.lastSequence();
            aheadAfter = next;
            ahead = thread.submit(() -> read(next));
        }
        return batch;
    }

    private PreparedBatch<T> read(long after) throws BufferException {
        List<BufferedRecord> records = after == Long.MIN_VALUE
                ? reader.peek(maxItems, maxBytes)
                : reader.peekAfter(after, maxItems, maxBytes);
        return records.isEmpty() ? PreparedBatch.empty() : PreparedBatch.prepare(records, codec, encoded);
    }

    private static <T> PreparedBatch<T> await(Future<PreparedBatch<T>> pending)
            throws BufferException, InterruptedException {
        try {
            return pending.get();
        } catch (CancellationException e) {
            return null;
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof BufferException buffer) {
                throw buffer;
            }
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException("read-ahead failed", cause);
        }
    }

    /** Forgets the batch read ahead (the forwarder starts over from its last acknowledgement). */
    void discard() {
        Future<PreparedBatch<T>> pending = ahead;
        ahead = null;
        if (pending != null) {
            pending.cancel(false);
        }
    }

    /** Ends the read-ahead thread, waiting up to 5 s for a read in progress. */
    @Override
    public void close() throws InterruptedException {
        ahead = null;
        thread.shutdownNow();
        thread.awaitTermination(5, TimeUnit.SECONDS);
    }
}
