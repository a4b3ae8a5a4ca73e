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
 *   <tr><td>any other exception (a bug in a sink)</td><td>{@link Kind#SINK_BUG}</td><td>1</td>
 *       <td>narrowed to the item it fails on, retried, quarantined at the attempt cap</td></tr>
 *   <tr><td>an {@link Error}</td><td>{@link Kind#FATAL}</td><td>1</td>
 *       <td>the items are made safe in the buffer, then the error is rethrown: the thread's
 *       supervisor restarts it</td></tr>
 * </table>
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
        return new Verdict(failure instanceof Error ? Kind.FATAL : Kind.SINK_BUG, failure,
                DeliveryAttempt.sinkFailure(failure));
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
