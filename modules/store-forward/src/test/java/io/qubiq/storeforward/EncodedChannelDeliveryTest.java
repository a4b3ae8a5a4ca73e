package io.qubiq.storeforward;

/**
 * Every test of {@link ChannelDeliveryTest} (fast path, isolation, acknowledgement across a restart,
 * ordering) again, with a sink that takes buffered items as bytes
 * ({@link io.qubiq.core.sink.EncodedWrites}).
 */
class EncodedChannelDeliveryTest extends ChannelDeliveryTest {

    @Override
    boolean encodedWrites() {
        return true;
    }
}
