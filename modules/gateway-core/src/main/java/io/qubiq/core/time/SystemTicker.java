package io.qubiq.core.time;

/** {@link Ticker#system()}: {@link System#nanoTime()}. */
enum SystemTicker implements Ticker {
    INSTANCE;

    @Override
    public long nanos() {
        return System.nanoTime();
    }
}
