package io.qubiq.storeforward;

import static io.qubiq.storeforward.ChannelFixture.items;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Every rule of {@link ChannelFailureClassesTest} again, with a sink that takes buffered items as
 * bytes ({@link io.qubiq.core.sink.EncodedWrites}): the delivery rules must not depend on which way
 * the forwarder hands items over.
 */
class EncodedChannelFailureClassesTest extends ChannelFailureClassesTest {

    @Override
    boolean encodedWrites() {
        return true;
    }

    @Test
    void bufferedItemsReachASinkWithEncodedWritesAsBytesInOrder() throws Exception {
        start(ChannelFixture.fastConfig());
        f.sink.down(true);
        f.channel.submit(items("x", 0, 120));
        await().until(() -> f.sink.writes() >= 2);
        f.sink.down(false);

        await().atMost(Duration.ofSeconds(10)).until(() -> f.sink.received().size() == 120);
        assertThat(f.sink.received()).containsExactlyElementsOf(items("x", 0, 120));
        assertThat(f.encodedSink.deliveredAsBytes.get()).isEqualTo(120);
        assertThat(f.encodedSink.deliveredAsItems.get()).isZero();
        assertThat(quarantined()).isEmpty();
    }
}
