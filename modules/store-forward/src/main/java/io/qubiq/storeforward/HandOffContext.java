package io.qubiq.storeforward;

import io.qubiq.buffer.SequenceRange;
import java.util.List;

/**
 * What a {@link HandOffDelivery} needs of its channel beyond the forwarder's {@link ForwarderContext}:
 * the channel's codec, and its buffer appends. The channel hands it over with the forwarder's context
 * ({@link ForwarderSide} implements both), so the hand-off's forwarder side does not depend on the
 * channel either.
 *
 * <p>Threading: called on the forwarder's thread; every method is safe there while producers submit.
 */
interface HandOffContext<T> extends ForwarderContext {

    /** The items encoded by the channel's codec, for the buffer (the codec's unchecked exception propagates). */
    List<byte[]> encode(List<T> items);

    /**
     * Appends under a lock of {@code latch} the caller holds, then closes the latch and wakes the
     * forwarder. The first {@code alreadyIn} payloads were counted in when they were handed off; null
     * when {@code payloads} is empty. See {@link BufferAppender} for what a failure means.
     */
    SequenceRange appendLocked(OrderingLatch latch, List<byte[]> payloads, int alreadyIn)
            throws ChannelFullException, ChannelException;
}
