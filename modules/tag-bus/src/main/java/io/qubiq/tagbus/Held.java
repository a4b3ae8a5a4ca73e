package io.qubiq.tagbus;

import io.qubiq.core.tag.Custody;
import io.qubiq.core.tag.TagValue;

/**
 * A value queued for a {@link CustodialConsumer} together with its share of the source's receipt.
 * Only values that came with a receipt are wrapped: the others are queued as they are, so a publish
 * without a receipt allocates nothing.
 */
record Held(TagValue value, Custody share) {

    /** Releases the share of a queued element, whatever it is (a plain value has none). */
    static void release(Object queued) {
        if (queued instanceof Held held) {
            held.share().release();
        }
    }
}
