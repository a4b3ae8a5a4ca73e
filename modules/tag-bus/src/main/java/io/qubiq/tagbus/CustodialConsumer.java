package io.qubiq.tagbus;

import io.qubiq.core.tag.Custody;
import io.qubiq.core.tag.TagValue;
import java.util.List;
import java.util.function.Consumer;

/**
 * The consumer of a subscriber that keeps data durably (the historian): besides each batch it receives
 * the batch's {@link Custody}, one share standing for the shares of every value in it that came with
 * a {@link io.qubiq.core.tag.CustodyReceipt} (a QoS 1 or 2 MQTT message). The consumer releases it once
 * the batch is buffered, delivered or accounted for (the rule of {@link Custody}); the source
 * acknowledges only then. {@link Custody#NONE} when no value of the batch came with a receipt.
 *
 * <p>The subscriber releases the custody itself for a batch the consumer throws on (those values are
 * counted as failed), for a value its overflow policy discards, and for values still queued when the
 * subscription ends; everything else is the consumer's to release, on every path.
 */
@FunctionalInterface
public interface CustodialConsumer extends Consumer<List<TagValue>> {

    void accept(List<TagValue> values, Custody custody);

    @Override
    default void accept(List<TagValue> values) {
        accept(values, Custody.NONE);
    }
}
