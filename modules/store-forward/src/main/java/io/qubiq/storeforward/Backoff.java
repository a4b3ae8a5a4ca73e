package io.qubiq.storeforward;

import java.util.random.RandomGenerator;

/**
 * Exponential backoff with jitter for head-of-line retries: the n-th consecutive failure waits
 * about {@code initial * 2^(n-1)}, capped at {@code max}, spread by ±20 % so that many channels
 * recovering from the same outage do not retry in lockstep. {@link #reset()} after a success.
 *
 * <p>Time: a delay is a duration, to be waited on the monotonic clock (the forwarder's
 * {@code Wakeups.await} counts it down on {@link System#nanoTime()}), never turned into a wall-clock
 * instant: a wall clock stepped back would then stretch one retry wait by the size of the step.
 *
 * <p>Threading: owned by the forwarder thread.
 */
final class Backoff {

    private static final double JITTER = 0.2;

    private final long initialMs;
    private final long maxMs;
    private final RandomGenerator random;
    private int failures;

    Backoff(long initialMs, long maxMs, RandomGenerator random) {
        if (initialMs <= 0 || maxMs < initialMs) {
            throw new IllegalArgumentException("need 0 < initial <= max, was " + initialMs + " and " + maxMs);
        }
        this.initialMs = initialMs;
        this.maxMs = maxMs;
        this.random = random;
    }

    /** The wait before the next retry; counts one more consecutive failure. */
    long nextDelayMs() {
        failures++;
        double base = Math.min((double) maxMs, initialMs * Math.pow(2, Math.min(failures - 1, 30)));
        double spread = base * JITTER * (2 * random.nextDouble() - 1);
        return Math.max(1, Math.min(maxMs, Math.round(base + spread)));
    }

    int consecutiveFailures() {
        return failures;
    }

    void reset() {
        failures = 0;
    }
}
