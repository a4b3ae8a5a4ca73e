package io.qubiq.benchmarks;

import io.qubiq.benchmarks.HeapSampler.Heap;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * The results of {@link HistorianThroughputHarness} and the summary it prints at the end: a row per
 * timed scenario, the per-repetition ratios against direct with their median, and the heap
 * readings of each drain.
 */
final class HistorianReport {

    /**
     * One timed scenario. {@code gatewayCpu} and {@code questDbCpu}: CPU seconds the harness JVM (the
     * gateway path, or the direct writer) and the QuestDB child used in the timed window.
     */
    record Run(String scenario, int repetition, long rows, double seconds, String load, double gatewayCpu,
               double questDbCpu) implements TimedRun {
        @Override
        public double rate() {
            return rows / seconds;
        }

        double gatewayMicrosPerRow() {
            return gatewayCpu * 1e6 / rows;
        }

        double questDbMicrosPerRow() {
            return questDbCpu * 1e6 / rows;
        }

    }

    /**
     * A timed drain and what was measured around it; {@code sliceRatios}: for a drain timed in slices,
     * each slice's rate against the direct slice beside it (empty for a drain timed whole).
     */
    record DrainResult(Run run, double fillSeconds, List<Heap> heap, double gcSeconds, double firstRowSeconds,
                       List<Double> sliceRatios) {
    }

    private final HistorianOptions options;

    HistorianReport(HistorianOptions options) {
        this.options = options;
    }

    /** The summary table, ratios and heap figures, after the per-scenario log lines. */
    void print(List<Run> runs, List<DrainResult> drains, String loadStart, String loadEnd) {
        System.out.println();
        System.out.println("=== Historian throughput: tag bus -> historian -> channel -> QuestDbSink vs questdb-client"
                + " direct ===");
        System.out.printf("samples/rep %,d, repetitions %d, warm-up %,d, tags %d, batch %d rows, backlog %,d,"
                        + " drain repetitions %d, %s%n", options.samples, options.repetitions, options.warmup,
                options.tags, options.batch, options.drain ? options.backlog : 0,
                options.drain ? options.drainRepetitions : 0, options.drainSlice > 0
                        ? String.format("drain and direct in alternating slices of %,d rows", options.drainSlice)
                        : "drain timed whole, then direct");
        System.out.println("ratio = rows/s against direct of the same repetition; JVM / QDB µs/row = CPU time of the"
                + " harness JVM (gateway path or direct writer) / of QuestDB per row. QuestDB's follows wall time (its"
                + " workers poll and take what CPU is free); the JVM's is the cost of each path.");
        System.out.printf("%-12s %4s %12s %9s %12s %7s %10s %10s  %s%n", "scenario", "rep", "rows", "seconds",
                "rows/s", "ratio", "JVM µs/row", "QDB µs/row", "load avg at start");
        for (int r = 1; r <= options.repetitions; r++) {
            Run d = find(runs, "direct", r);
            row(d, null);
            row(find(runs, "gateway", r), d);
        }
        System.out.printf("throughput: direct median %,.0f rows/s, gateway median %,.0f rows/s; median of per-rep ratios"
                        + " %s; JVM CPU per row, median: direct %.2f µs, gateway %.2f µs%n",
                Medians.of(values(runs, "direct", Run::rate)), Medians.of(values(runs, "gateway", Run::rate)),
                TimedRun.Spread.of(TimedRun.ratios(runs, "gateway", "direct")),
                Medians.of(values(runs, "direct", Run::gatewayMicrosPerRow)),
                Medians.of(values(runs, "gateway", Run::gatewayMicrosPerRow)));
        if (!drains.isEmpty()) {
            List<Double> drainRatios = new ArrayList<>();
            for (DrainResult drain : drains) {
                Run dd = find(runs, "drain-direct", drain.run.repetition());
                row(drain.run, dd);
                row(dd, null);
                drainRatios.add(drain.run.rate() / dd.rate());
                if (drain.sliceRatios.isEmpty()) {
                    System.out.printf("  drain %d: ratio %.3f; backlog fill %.2f s = %,.0f samples/s; first row"
                                    + " delivered %.2f s after QuestDB answered; System.gc() time in drain %.2f s%n",
                            drain.run.repetition(), drain.run.rate() / dd.rate(), drain.fillSeconds,
                            options.backlog / drain.fillSeconds, drain.firstRowSeconds, drain.gcSeconds);
                } else {
                    List<Double> sorted = drain.sliceRatios.stream().sorted().toList();
                    System.out.printf("  drain %d: ratio %.3f over %d slices of %,d rows alternating with direct"
                                    + " (per slice: min %.3f, median %.3f, max %.3f); backlog fill %.2f s = %,.0f"
                                    + " samples/s%n", drain.run.repetition(), drain.run.rate() / dd.rate(),
                            sorted.size(), options.drainSlice, sorted.get(0), Medians.of(sorted),
                            sorted.get(sorted.size() - 1), drain.fillSeconds, options.backlog / drain.fillSeconds);
                }
            }
            System.out.printf("drain (%,d rows, %d repetitions): median ratio %s; JVM CPU per"
                            + " row, median: direct %.2f µs, drain %.2f µs%n", options.backlog, drains.size(),
                    TimedRun.Spread.of(drainRatios),
                    Medians.of(values(runs, "drain-direct", Run::gatewayMicrosPerRow)),
                    Medians.of(values(runs, "drain", Run::gatewayMicrosPerRow)));
            for (DrainResult drain : drains) {
                System.out.printf("heap, drain %d:%n", drain.run.repetition());
                heapReport(drain.heap);
            }
        }
        ThroughputHarness.printLoadLine(loadStart, loadEnd);
    }

    private static void heapReport(List<Heap> heap) {
        for (String phase : List.of("fill", "drain")) {
            List<Double> mib = heap.stream().filter(h -> h.phase().equals(phase) && !h.afterGc())
                    .map(h -> h.usedBytes() / 1048576.0).sorted().toList();
            if (!mib.isEmpty()) {
                System.out.printf("heap used during %-5s (1 s samples, no forced GC, n=%d): min %.0f MiB, median %.0f"
                        + " MiB, max %.0f MiB%n", phase, mib.size(), mib.get(0), Medians.of(mib), mib.get(mib.size() - 1));
            }
        }
        System.out.print("heap used after System.gc():");
        for (Heap h : heap) {
            if (h.afterGc()) {
                String at = h.phase().equals("fill") ? (h.progress() == 0 ? "fill start (empty buffer)"
                        : "fill end (full backlog)") : String.format("drain %.0f %%", h.progress() * 100);
                System.out.printf(" %s %.1f MiB;", at, h.usedBytes() / 1048576.0);
            }
        }
        System.out.println();
    }

    /** One table row; with a {@code baseline}, also the rate ratio against it. */
    private static void row(Run r, Run baseline) {
        System.out.printf("%-12s %4d %,12d %9.2f %,12.0f %7s %10.2f %10.2f  %s%n", r.scenario, r.repetition, r.rows,
                r.seconds, r.rate(), baseline == null ? "" : String.format("%.3f", r.rate() / baseline.rate()),
                r.gatewayMicrosPerRow(), r.questDbMicrosPerRow(), r.load);
    }

    private static List<Double> values(List<Run> runs, String scenario, ToDoubleFunction<Run> value) {
        return TimedRun.values(runs, scenario, value);
    }

    private static Run find(List<Run> runs, String scenario, int repetition) {
        return TimedRun.find(runs, scenario, repetition);
    }
}
