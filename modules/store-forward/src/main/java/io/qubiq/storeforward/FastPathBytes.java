package io.qubiq.storeforward;

import io.qubiq.core.sink.ItemCodec;
import java.util.List;

/**
 * The byte count of batches written on the fast path, estimated without encoding them: a batch
 * that reaches the destination directly never needs its buffer bytes, and encoding every item only
 * to count it would cost the producer more than the write. One item in {@value #SAMPLE_EVERY}
 * (counted across batches, so single-item batches are sampled too) is encoded, and a batch counts
 * its size times the running mean of the sampled sizes. Only the byte counters (the in and out
 * rates of the status and the pressure alarm) use the estimate; item counts stay exact, and items
 * that are buffered are counted with their exact encoded size.
 *
 * <p>Threading: used by the producer that holds the channel's exclusive latch lock, one at a time.
 */
final class FastPathBytes<T> {

    static final int SAMPLE_EVERY = 64;
    /** Weight of a new sample in the running mean. */
    private static final double WEIGHT = 1.0 / 8;

    private final ItemCodec<T> codec;
    private long untilSample;
    private double meanBytes;
    private boolean sampled;

    FastPathBytes(ItemCodec<T> codec) {
        this.codec = codec;
    }

    /** The estimated encoded size of {@code batch}, which was just written. Never throws. */
    long estimate(List<T> batch) {
        int size = batch.size();
        long next = untilSample;
        while (next < size) {
            sample(batch.get((int) next));
            next += SAMPLE_EVERY;
        }
        untilSample = next - size;
        return Math.round(meanBytes * size);
    }

    private void sample(T item) {
        int bytes;
        try {
            bytes = codec.encode(item).length;
        } catch (RuntimeException e) {
            return; // the item is written already; a codec that cannot encode it only loses us a sample
        }
        meanBytes = sampled ? meanBytes + (bytes - meanBytes) * WEIGHT : bytes;
        sampled = true;
    }
}
