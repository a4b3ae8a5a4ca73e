package io.qubiq.core.time;

/**
 * A monotonic time source for measuring durations: how long since a value was stored, when a timer
 * is due, how long a session has been idle. Its readings mean nothing on their own, only the
 * difference between two of them does, and that difference never jumps when the wall clock is set
 * back or forward (by NTP, an operator or a virtual machine resumed from a snapshot).
 *
 * <p>The rule in Qubiq: <b>intervals follow a ticker; the wall clock ({@link java.time.Clock}) only
 * stamps values</b> (receive times, heartbeat times, "since" in a status). Code that needs both takes
 * both.
 *
 * <p>Compare readings by subtraction ({@code b - a}), never with {@code <}: like
 * {@link System#nanoTime()}, a reading may be negative and may wrap.
 *
 * <p>Threading: implementations are safe to read from any thread.
 */
@FunctionalInterface
public interface Ticker {

    /** The current reading in nanoseconds, from an arbitrary origin. */
    long nanos();

    /** Milliseconds elapsed since the reading {@code startNanos}. */
    default long millisSince(long startNanos) {
        return (nanos() - startNanos) / 1_000_000L;
    }

    /** The JVM's monotonic clock, {@link System#nanoTime()}. */
    static Ticker system() {
        return SystemTicker.INSTANCE;
    }
}
