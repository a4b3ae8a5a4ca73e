package io.qubiq.pipeline;

import io.qubiq.core.tag.Custody;
import io.qubiq.pipeline.expr.ExpressionException;
import io.qubiq.pipeline.expr.Scope;

/**
 * One output of one pipeline. Events are first mapped ({@link #prepare}), then the prepared items
 * of all events handled together are submitted at once ({@link #submit}), so a burst of tag
 * changes costs one channel submit, not one per value. Owned by its pipeline's event thread.
 */
public interface PipelineOutput {

    /** The outbound connection this output writes to. */
    String connection();

    /** Maps the event and holds the item until {@link #submit}. */
    void prepare(Scope scope, String itemId) throws ExpressionException;

    /** Drops what {@link #prepare} held for an event that failed in another output. */
    void discardLast();

    /**
     * Submits every held item to the connection's channel, in order.
     *
     * @return how many items were submitted
     * @throws OutputRefusedException when the channel refused them (they are no longer held)
     */
    int submit() throws OutputRefusedException;

    /**
     * As {@link #submit()}, and {@code custody} (the shares of the MQTT messages the items came from)
     * is released exactly once: by the channel once the items are buffered, delivered or refused
     * ({@link io.qubiq.storeforward.StoreForwardChannel#submit(java.util.List, Custody)}). This
     * default, for outputs that keep nothing, releases it when {@link #submit()} returned or threw.
     */
    default int submit(Custody custody) throws OutputRefusedException {
        try {
            return submit();
        } finally {
            custody.release();
        }
    }

    /** Items submitted and refused since the gateway started (the pipeline keeps the lasting totals). */
    OutputCounts counts();

    /** Per-output totals. */
    record OutputCounts(String connection, long submitted, long refused) {
    }
}
