package io.qubiq.connector.opcua;

/**
 * The wait before the next connection attempt: {@code initial}, doubling per consecutive failure up
 * to {@code max}; {@link #reset()} after a success. Owned by the connector thread; not thread-safe.
 */
final class ReconnectBackoff {

    private final long initialMs;
    private final long maxMs;
    private long nextMs;

    ReconnectBackoff(long initialMs, long maxMs) {
        if (initialMs <= 0 || maxMs < initialMs) {
            throw new IllegalArgumentException("backoff needs 0 < initial <= max, got " + initialMs + " and " + maxMs);
        }
        this.initialMs = initialMs;
        this.maxMs = maxMs;
        this.nextMs = initialMs;
    }

    /** The wait before the next attempt; each call doubles the one after it, up to the maximum. */
    long nextDelayMs() {
        long delay = nextMs;
        nextMs = Math.min(maxMs, nextMs * 2);
        return delay;
    }

    void reset() {
        nextMs = initialMs;
    }
}
