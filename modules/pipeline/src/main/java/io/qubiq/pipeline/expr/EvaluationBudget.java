package io.qubiq.pipeline.expr;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Optional;

/**
 * The limits of one evaluation as it runs: elements built so far and the time spent. {@link Expression#evaluate}
 * opens one for the evaluating thread ({@link #open}), and the sandbox's arithmetic, introspection and regular
 * expression matching charge it; the time is checked every {@value #CHECK_EVERY} charges.
 *
 * <p>Time is the evaluating thread's CPU time where the JVM measures it (so a garbage-collection pause or a
 * busy machine does not fail an evaluation), else elapsed time.
 *
 * <p>Threading: confined to the evaluating thread (a thread-local); evaluations on other threads have their own.
 */
final class EvaluationBudget implements AutoCloseable {

    static final int CHECK_EVERY = 16;
    private static final ThreadLocal<EvaluationBudget> CURRENT = new ThreadLocal<>();
    private static final ThreadMXBean THREADS = cpuClock();

    private final ExpressionLimits limits;
    private final EvaluationBudget outer;
    private final long start;
    private long elements;
    private int charges;

    private EvaluationBudget(ExpressionLimits limits, EvaluationBudget outer) {
        this.limits = limits;
        this.outer = outer;
        this.start = now();
    }

    /** Starts the budget of an evaluation on this thread; close it when the evaluation ends. */
    static EvaluationBudget open(ExpressionLimits limits) {
        EvaluationBudget budget = new EvaluationBudget(limits, CURRENT.get());
        CURRENT.set(budget);
        return budget;
    }

    /** The budget of the evaluation running on this thread, if any. */
    static Optional<EvaluationBudget> current() {
        return Optional.ofNullable(CURRENT.get());
    }

    ExpressionLimits limits() {
        return limits;
    }

    /** One step of work; every {@value #CHECK_EVERY}th checks the time. */
    void charge() {
        if (++charges % CHECK_EVERY == 0) {
            checkTime();
        }
    }

    void checkTime() {
        long spent = now() - start;
        if (spent > limits.timeBudget().toNanos()) {
            throw new LimitExceededException("stopped after " + spent / 1_000_000 + " ms: over the time budget of "
                    + limits.timeBudget().toMillis() + " ms per evaluation");
        }
    }

    /** Counts {@code count} elements built (a range, list or map entries). */
    void countElements(long count) {
        elements += count;
        if (elements > limits.maxElements()) {
            throw new LimitExceededException("builds more than " + limits.maxElements()
                    + " elements (lists, maps and ranges together)");
        }
    }

    /** Refuses a string longer than the limit. */
    void checkString(CharSequence text) {
        if (text.length() > limits.maxStringChars()) {
            throw new LimitExceededException("builds a string of " + text.length() + " characters; at most "
                    + limits.maxStringChars() + " are allowed");
        }
    }

    @Override
    public void close() {
        if (outer == null) {
            CURRENT.remove();
        } else {
            CURRENT.set(outer);
        }
    }

    private static long now() {
        return THREADS == null ? System.nanoTime() : THREADS.getCurrentThreadCpuTime();
    }

    private static ThreadMXBean cpuClock() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        try {
            if (threads.isCurrentThreadCpuTimeSupported()) {
                if (!threads.isThreadCpuTimeEnabled()) {
                    threads.setThreadCpuTimeEnabled(true);
                }
                return threads.getCurrentThreadCpuTime() >= 0 ? threads : null;
            }
        } catch (UnsupportedOperationException | SecurityException e) {
            return null;
        }
        return null;
    }
}
