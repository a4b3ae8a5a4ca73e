package io.qubiq.storeforward;

import java.util.ArrayDeque;
import java.util.OptionalDouble;
import java.util.function.LongSupplier;

/**
 * How fast a buffer is filling now: the change of its used bytes over the last few seconds,
 * measured from samples of the fill itself. Time to full is computed from this rather than from
 * the smoothed in and out rates, which lag behind by their time constant: five seconds into an
 * outage the out rate still shows most of what was delivered before it, and a buffer that fills in
 * five minutes would read "full in 14 min".
 *
 * <p>Samples are kept at most every {@value #SAMPLE_EVERY_MS} ms and for {@code windowMs}; the
 * rate needs samples spanning at least {@value #MIN_SPAN_MS} ms. Durations come from a monotonic
 * clock. Threading: safe for concurrent callers; a call between two samples (most appends) reads
 * one volatile field and returns, the rest is synchronized.
 */
final class FillTrend {

    static final long SAMPLE_EVERY_MS = 100;
    static final long MIN_SPAN_MS = 1_000;

    private record Sample(long nanos, long usedBytes) {
    }

    private final long windowNanos;
    private final LongSupplier nanoClock;
    private static final long SAMPLE_EVERY_NANOS = SAMPLE_EVERY_MS * 1_000_000L;

    private final ArrayDeque<Sample> samples = new ArrayDeque<>();
    private volatile long lastSampleNanos;

    FillTrend(long windowMs, LongSupplier nanoClock) {
        this.windowNanos = windowMs * 1_000_000L;
        this.nanoClock = nanoClock;
        this.lastSampleNanos = nanoClock.getAsLong() - SAMPLE_EVERY_NANOS;
    }

    void sample(long usedBytes) {
        long now = nanoClock.getAsLong();
        if (now - lastSampleNanos < SAMPLE_EVERY_NANOS) {
            return;
        }
        synchronized (this) {
            if (now - lastSampleNanos < SAMPLE_EVERY_NANOS) {
                return;
            }
            lastSampleNanos = now;
            samples.addLast(new Sample(now, usedBytes));
            while (samples.size() > 1 && now - samples.peekFirst().nanos() > windowNanos) {
                samples.pollFirst();
            }
        }
    }

    /**
     * Bytes per second the buffer grew (positive) or shrank (negative) over the window; empty when
     * the samples span less than {@value #MIN_SPAN_MS} ms or are older than the window.
     */
    synchronized OptionalDouble bytesPerSecond() {
        Sample first = samples.peekFirst();
        Sample last = samples.peekLast();
        if (first == null || nanoClock.getAsLong() - last.nanos() > windowNanos) {
            return OptionalDouble.empty();
        }
        long span = last.nanos() - first.nanos();
        if (span < MIN_SPAN_MS * 1_000_000L) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of((last.usedBytes() - first.usedBytes()) * 1e9 / span);
    }
}
