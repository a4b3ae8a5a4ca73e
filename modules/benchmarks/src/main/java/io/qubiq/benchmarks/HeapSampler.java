package io.qubiq.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * Heap use of this JVM while a harness fills and drains a backlog: sampled once a second (no GC
 * forced) with the current phase, and on demand right after a full collection.
 */
final class HeapSampler {

    /** One reading; {@code progress} is the drain's share done (-1 outside a drain). */
    record Heap(String phase, double progress, long usedBytes, boolean afterGc) {
    }

    private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();

    /** Heap used right after a full collection ({@code System.gc()}). */
    static long usedAfterGc() {
        System.gc();
        return MEMORY.getHeapMemoryUsage().getUsed();
    }

    private final List<Heap> out;
    private volatile String phase = "idle";
    private volatile double progress;
    private volatile boolean running = true;
    private final Thread thread;

    HeapSampler(List<Heap> out) {
        this.out = out;
        this.thread = new Thread(this::loop, "heap-sampler");
        this.thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    void phase(String value) {
        phase = value;
    }

    void progress(double value) {
        progress = value;
    }

    void stop() throws InterruptedException {
        running = false;
        thread.interrupt();
        thread.join(2000);
    }

    private void loop() {
        while (running) {
            LockSupport.parkNanos(1_000_000_000L);
            String current = phase;
            if (current.equals("fill") || current.equals("drain")) {
                out.add(new Heap(current, current.equals("drain") ? progress : -1,
                        MEMORY.getHeapMemoryUsage().getUsed(), false));
            }
        }
    }
}
