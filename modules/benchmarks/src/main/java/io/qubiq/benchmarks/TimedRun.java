package io.qubiq.benchmarks;

import java.util.Collections;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * One timed scenario of one repetition, as every harness's report reads it, and the look-ups the
 * reports share. Implemented by each harness's own run record (which adds what that harness counts).
 */
interface TimedRun {

    /** {@code direct}, {@code gateway}, {@code buffered}, {@code drain}, ... */
    String scenario();

    /** 1.., or 0 for a warm-up. */
    int repetition();

    /** Items per second. */
    double rate();

    /** The run of {@code scenario} in {@code repetition}. */
    static <R extends TimedRun> R find(List<R> runs, String scenario, int repetition) {
        return runs.stream().filter(r -> r.scenario().equals(scenario) && r.repetition() == repetition)
                .findFirst().orElseThrow(() -> new IllegalStateException("no " + scenario + " run in repetition "
                        + repetition));
    }

    /** {@code value} of every run of {@code scenario}, in order. */
    static <R extends TimedRun> List<Double> values(List<R> runs, String scenario, ToDoubleFunction<R> value) {
        return runs.stream().filter(r -> r.scenario().equals(scenario)).map(value::applyAsDouble).toList();
    }

    /**
     * For each run of {@code scenario}, in order, its rate against {@code baseline}'s in the same
     * repetition.
     */
    static <R extends TimedRun> List<Double> ratios(List<R> runs, String scenario, String baseline) {
        return runs.stream().filter(r -> r.scenario().equals(scenario))
                .map(r -> r.rate() / find(runs, baseline, r.repetition()).rate()).toList();
    }

    /** The median of {@code values} with their least and greatest; at least one value. */
    record Spread(double median, double min, double max) {

        static Spread of(List<Double> values) {
            return new Spread(Medians.of(values), Collections.min(values), Collections.max(values));
        }

        /** {@code 0.912 (min 0.800, max 1.010)}. */
        @Override
        public String toString() {
            return String.format("%.3f (min %.3f, max %.3f)", median, min, max);
        }
    }
}
