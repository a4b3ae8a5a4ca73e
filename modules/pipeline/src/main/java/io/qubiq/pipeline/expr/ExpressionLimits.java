package io.qubiq.pipeline.expr;

import java.time.Duration;

/**
 * What one evaluation of one expression may build and spend. Exceeding a limit fails that evaluation with an
 * {@link ExpressionException} naming the limit; the pipeline counts it as a failed event like any other
 * evaluation error.
 *
 * @param maxElements    most elements of one range ({@code 1 .. n}), and most list and map elements the
 *                       evaluation's result may hold, nested ones included
 * @param maxStringChars longest string an evaluation may build (by {@code +} or {@code str})
 * @param timeBudget     most CPU time of the evaluating thread one evaluation may spend
 */
public record ExpressionLimits(int maxElements, int maxStringChars, Duration timeBudget) {

    /** 100,000 elements, 1,000,000 characters, 50 ms. */
    public static final ExpressionLimits DEFAULT = new ExpressionLimits(100_000, 1_000_000, Duration.ofMillis(50));

    public ExpressionLimits {
        if (maxElements < 1 || maxStringChars < 1 || timeBudget.isNegative() || timeBudget.isZero()) {
            throw new IllegalArgumentException("expression limits must be positive");
        }
    }
}
