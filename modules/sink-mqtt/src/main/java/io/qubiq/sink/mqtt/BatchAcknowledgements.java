package io.qubiq.sink.mqtt;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The outcomes of one batch's messages as they arrive: each message is settled once (the first
 * outcome wins), and the writing thread waits until all are settled or the deadline passes.
 * Messages still unsettled then are {@link PublishOutcome.Unanswered}.
 *
 * <p>Thread-safe: {@link #settled} comes from the client's event loop, {@link #await} from the
 * writing thread. A late outcome after {@link #await} returned changes nothing the writer saw.
 */
final class BatchAcknowledgements implements PublishingClient.OutcomeListener {

    private static final PublishOutcome UNANSWERED = new PublishOutcome.Unanswered();

    private final AtomicReferenceArray<PublishOutcome> outcomes;
    private final CountDownLatch unsettled;

    BatchAcknowledgements(int size) {
        this.outcomes = new AtomicReferenceArray<>(size);
        this.unsettled = new CountDownLatch(size);
    }

    @Override
    public void settled(int index, PublishOutcome outcome) {
        if (outcomes.compareAndSet(index, null, outcome)) {
            unsettled.countDown();
        }
    }

    /**
     * Waits until every message is settled or {@code timeoutMs} passed, and returns the outcomes in
     * batch order.
     *
     * @throws InterruptedException the writing thread was interrupted while waiting
     */
    List<PublishOutcome> await(long timeoutMs) throws InterruptedException {
        unsettled.await(timeoutMs, TimeUnit.MILLISECONDS);
        return snapshot();
    }

    /** The outcomes now, unsettled ones as unanswered. */
    List<PublishOutcome> snapshot() {
        List<PublishOutcome> result = new ArrayList<>(outcomes.length());
        for (int i = 0; i < outcomes.length(); i++) {
            PublishOutcome outcome = outcomes.get(i);
            result.add(outcome == null ? UNANSWERED : outcome);
        }
        return result;
    }

    /** The indexes acknowledged in {@code outcomes}. */
    static BitSet acknowledged(List<PublishOutcome> outcomes) {
        BitSet acknowledged = new BitSet(outcomes.size());
        for (int i = 0; i < outcomes.size(); i++) {
            if (outcomes.get(i) instanceof PublishOutcome.Acknowledged) {
                acknowledged.set(i);
            }
        }
        return acknowledged;
    }
}
