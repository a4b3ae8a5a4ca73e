package io.qubiq.storeforward;

import io.qubiq.core.error.FailureClass;
import io.qubiq.core.error.GatewayException;
import io.qubiq.core.error.PermanentException;
import io.qubiq.core.error.UnknownOutcomeException;

/**
 * The one place that decides what a failed write to a destination means (DESIGN.md rule 4), for
 * every path that writes: a batch written directly ({@link DirectWrite}, the hand-off and
 * synchronous channels) and a batch read back from the buffer ({@link DeliveryAttempt}). Each path
 * then does what the verdict says with the items it holds; neither decides a class itself.
 *
 * <table>
 *   <caption>Verdicts</caption>
 *   <tr><th>Thrown by the sink</th><th>Verdict</th><th>Attempts counted</th><th>What happens</th></tr>
 *   <tr><td>{@code TransientException}</td><td>{@link Kind#OUTAGE}</td><td>0</td>
 *       <td>the batch waits (buffered) and is retried after backoff; an outage never costs an item</td></tr>
 *   <tr><td>{@code ConfigurationException}</td><td>{@link Kind#MISCONFIGURED}</td><td>0</td>
 *       <td>as an outage, and the operator is told which setting is wrong (logged as an error)</td></tr>
 *   <tr><td>{@code PermanentException}</td><td>{@link Kind#REJECTED}</td><td>1</td>
 *       <td>the rejected items are quarantined, the others delivered in order</td></tr>
 *   <tr><td>{@code UnknownOutcomeException}</td><td>{@link Kind#NO_VERDICT}</td><td>1</td>
 *       <td>retried; at {@code max_delivery_attempts} quarantined as "outcome unknown" (not for an
 *       idempotent destination)</td></tr>
 *   <tr><td>any other exception (a bug in a sink), and an {@link Error} other than the JVM's own
 *       (below): {@code StackOverflowError}, {@code LinkageError} such as {@code NoClassDefFoundError},
 *       {@code AssertionError}, ...</td><td>{@link Kind#SINK_BUG}</td><td>1</td>
 *       <td>narrowed to the item it fails on, retried after backoff, quarantined at the attempt cap
 *       as "sink failure: &lt;class&gt;: &lt;message&gt;"; the forwarder's thread goes on</td></tr>
 *   <tr><td>a failure of the JVM itself: a {@link VirtualMachineError} other than
 *       {@code StackOverflowError} ({@code OutOfMemoryError}, {@code InternalError})</td>
 *       <td>{@link Kind#FATAL}</td><td>1 (from the buffer: once narrowed)</td>
 *       <td>the items are made safe in the buffer, then the error is rethrown: the thread's
 *       supervisor raises {@code forwarder_failed} and restarts it. Should the same write fail so
 *       again, it is narrowed like a sink bug, each failure of the lone item rethrown; at the attempt
 *       cap that item is quarantined as "sink failure: ..."</td></tr>
 * </table>
 *
 * <p><b>Why errors split this way.</b> Most errors a sink or codec throws are about the payload: a
 * deeply nested item overflows the stack, a rarely used class fails to link, an assertion trips on
 * an odd shape. They are bugs like any unclassified exception, the stack is unwound when they are
 * caught, and the item that causes them every time must not stop the channel, so they are capped.
 * A JVM out of heap (or broken) is usually not the item's fault: it is reported loudly (alarm,
 * restart with backoff) and not counted against a whole batch. But an item that makes the sink
 * exhaust the heap every time must not stop the channel for ever either: once a retry fails the
 * same way, the write is narrowed to that item and the attempt cap applies to it. In a JVM that is
 * short of heap for everything, this quarantines items one at a time, each after
 * {@code max_delivery_attempts} restarts with the alarm raised; nothing is lost (an operator retries
 * them from the quarantine).
 *
 * <p>Stateless and thread-safe.
 */
final class DeliveryPolicy {

    /** What a failure means for the items of the write. */
    enum Kind {
        OUTAGE(0), MISCONFIGURED(0), REJECTED(1), NO_VERDICT(1), SINK_BUG(1), FATAL(1);

        private final int attempts;

        Kind(int attempts) {
            this.attempts = attempts;
        }

        /** Attempts the write used up for each of its items: an outage never counts. */
        int attempts() {
            return attempts;
        }
    }

    /**
     * A judged failure.
     *
     * @param kind    what it means
     * @param failure what the sink threw
     * @param reason  the text for counters, logs and (for the capped kinds) the quarantine reason
     */
    record Verdict(Kind kind, Throwable failure, String reason) {

        /** The sink's rejection, for {@link Kind#REJECTED}. */
        PermanentException rejection() {
            return (PermanentException) failure;
        }

        /** True when the destination timed out a request that may have been applied. */
        boolean timedOut() {
            return failure instanceof UnknownOutcomeException unknown && unknown.isTimeout();
        }
    }

    private DeliveryPolicy() {
    }

    /** Judges what a write's {@code failure} means. */
    static Verdict judge(Throwable failure) {
        if (failure instanceof GatewayException typed) {
            return new Verdict(kindOf(typed.failureClass()), failure, failure.getMessage());
        }
        return new Verdict(jvmFailure(failure) ? Kind.FATAL : Kind.SINK_BUG, failure,
                DeliveryAttempt.sinkFailure(failure));
    }

    /**
     * True for a failure of the JVM rather than of the code that ran on it: a {@link
     * VirtualMachineError} other than {@link StackOverflowError} (which deep recursion on one payload
     * causes, and which is over once the stack unwound). Everything else a sink or codec throws is a
     * bug that one item may trigger every time.
     */
    static boolean jvmFailure(Throwable failure) {
        return failure instanceof VirtualMachineError && !(failure instanceof StackOverflowError);
    }

    private static Kind kindOf(FailureClass failureClass) {
        return switch (failureClass) {
            case TRANSIENT -> Kind.OUTAGE;
            case CONFIGURATION -> Kind.MISCONFIGURED;
            case PERMANENT -> Kind.REJECTED;
            case UNKNOWN_OUTCOME -> Kind.NO_VERDICT;
        };
    }
}
