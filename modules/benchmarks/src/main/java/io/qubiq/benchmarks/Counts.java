package io.qubiq.benchmarks;

import java.util.Locale;

/**
 * Row and message counts on the harnesses' command lines: {@code 500000}, {@code 500k}, {@code 2.5m},
 * {@code 1_000}.
 */
final class Counts {

    private Counts() {
    }

    /** @throws NumberFormatException when {@code s} is not such a count */
    static long count(String s) {
        String t = s.toLowerCase(Locale.ROOT).replace("_", "");
        if (t.endsWith("m")) {
            return Math.round(Double.parseDouble(t.substring(0, t.length() - 1)) * 1_000_000);
        }
        if (t.endsWith("k")) {
            return Math.round(Double.parseDouble(t.substring(0, t.length() - 1)) * 1_000);
        }
        return Long.parseLong(t);
    }
}
