package io.qubiq.benchmarks;

import io.qubiq.benchmarks.HistorianThroughputHarness.Cpu;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * What one side of a sliced drain used over all its slices: rows, seconds, CPU of this JVM and
 * QuestDB, and this JVM's CPU by thread. {@link #begin} and {@link #end} bracket each slice.
 */
final class SliceTally {

    private final Supplier<Cpu> clock;
    private final Map<String, Long> threads = new TreeMap<>();
    private long rows;
    private double seconds;
    private Cpu cpu = Cpu.NONE;
    private Map<String, Long> threads0;
    private Cpu c0;
    private long t0;

    /** @param clock CPU used so far by this JVM and by QuestDB */
    SliceTally(Supplier<Cpu> clock) {
        this.clock = clock;
    }

    void begin() {
        threads0 = ThreadCpu.snapshot();
        c0 = clock.get();
        t0 = System.nanoTime();
    }

    /** Ends a slice of {@code n} rows; returns its seconds. */
    double end(long n) {
        double slice = (System.nanoTime() - t0) / 1e9;
        cpu = cpu.plus(clock.get().since(c0));
        ThreadCpu.addSince(threads, threads0);
        rows += n;
        seconds += slice;
        return slice;
    }

    long rows() {
        return rows;
    }

    double seconds() {
        return seconds;
    }

    Cpu cpu() {
        return cpu;
    }

    /** Nanoseconds of CPU by thread name over all slices ({@link ThreadCpu#describe}). */
    Map<String, Long> threads() {
        return threads;
    }
}
