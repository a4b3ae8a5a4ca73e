package io.qubiq.benchmarks;

import java.util.List;

/** The median the harnesses read their repetitions by. */
final class Medians {

    private Medians() {
    }

    /** The middle value of {@code values}, or the mean of the two middle ones; at least one value. */
    static double of(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }
}
