package io.qubiq.buffer;

/**
 * Wall-clock milliseconds for append timestamps, read from a field that one shared daemon thread
 * refreshes every millisecond. {@link System#currentTimeMillis()} costs about 30 ns on this
 * project's virtual machines, a fifth of an append; a record's time only needs millisecond
 * precision (it feeds "age of the oldest record").
 *
 * <p>The value lags the real clock by up to a millisecond, more when the machine is overloaded
 * and the ticker is scheduled late.
 *
 * <p>Only single-record appends use it. The ticker wakes a thousand times a second for the rest of
 * the process's life once started, which on a loaded two-core machine costs more CPU than it saves
 * (measured: 0.6-0.8 s of CPU during a 20-30 s drain of the historian's buffer, a fifth of the
 * forwarder's own), so batch appends read {@link System#currentTimeMillis()} once per batch
 * instead and a process that only appends batches never starts it.
 *
 * <p><b>Threading.</b> Safe for any thread. The ticker thread starts on first use and never stops.
 */
final class CoarseClock {
  private static volatile long now = System.currentTimeMillis();

  static {
    Thread ticker = new Thread(() -> {
      while (true) {
        now = System.currentTimeMillis();
        try {
          Thread.sleep(1);
        } catch (InterruptedException e) {
          return;
        }
      }
    }, "qubiq-buffer-clock");
    ticker.setDaemon(true);
    ticker.start();
  }

  private CoarseClock() {}

  static long millis() {
    return now;
  }
}
