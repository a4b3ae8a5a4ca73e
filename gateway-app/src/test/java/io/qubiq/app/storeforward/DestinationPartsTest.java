package io.qubiq.app.storeforward;

import static org.assertj.core.api.Assertions.assertThat;

import io.qubiq.core.health.ConnectionState;
import io.qubiq.core.health.ConnectionStatus;
import io.qubiq.core.lifecycle.DegradedPart;
import io.qubiq.storeforward.ChannelState;
import io.qubiq.storeforward.ChannelStatus;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class DestinationPartsTest {

    private static final Instant SINCE = Instant.parse("2026-12-02T06:05:10Z");

    private static ChannelStatus channel(ChannelState state, boolean refusing) {
        return new ChannelStatus("db", state, ConnectionState.UP, 1000, 10, 1000, 100.0, 80, 60, Optional.empty(),
                0, 0, 10, 0, 0, refusing ? 5 : 0, 0, 10, 0, 0, true, refusing, Optional.empty(), Optional.empty());
    }

    private static Optional<ConnectionStatus> destination(ConnectionState state) {
        return Optional.of(new ConnectionStatus(state, SINCE, Optional.of("connection refused")));
    }

    // Catches: the console header saying READY while a full channel turned every new item away.
    @Test
    void aChannelRefusingAtItsLimitIsADegradedPartEvenWhileItsDestinationIsUp() {
        assertThat(DestinationParts.part("channel:db", channel(ChannelState.DRAINING, true),
                destination(ConnectionState.UP)))
                .contains(new DegradedPart("channel:db", "FULL", "refusing: buffer full"));
    }

    // Catches: one of the two reasons hiding the other when the destination is down and the buffer refuses.
    @Test
    void aDownDestinationWhoseChannelRefusesIsListedOnceWithBothReasons() {
        assertThat(DestinationParts.part("channel:db", channel(ChannelState.GATED, true),
                destination(ConnectionState.DOWN)))
                .contains(new DegradedPart("channel:db", "DOWN",
                        "destination down since 2026-12-02T06:05:10Z: connection refused; refusing: buffer full"));
    }

    // Catches: a buffer above its high-water mark that still takes items turning /health DEGRADED.
    @Test
    void aFullChannelThatStillTakesItemsIsNotAPart() {
        assertThat(DestinationParts.part("channel:db", channel(ChannelState.DRAINING, false),
                destination(ConnectionState.UP))).isEmpty();
        assertThat(DestinationParts.part("channel:db", channel(ChannelState.STOPPED, true),
                destination(ConnectionState.DOWN))).as("a stopped channel is its component's business").isEmpty();
    }

    // Catches: /health staying READY while a channel's forwarder thread is dead or being restarted.
    @Test
    void aChannelWhoseForwarderFailedIsADegradedPartWithItsLastErrorUntilItDeliversAgain() {
        ChannelStatus failed = new ChannelStatus("db", ChannelState.FAILED, ConnectionState.UP, 1000, 10, 1000, 100.0,
                80, 60, Optional.empty(), 0, 0, 10, 0, 0, 0, 0, 10, 0, 0, false, false,
                Optional.of("forwarder failed: java.lang.OutOfMemoryError: Java heap space"), Optional.of(SINCE));
        assertThat(DestinationParts.part("channel:db", failed, destination(ConnectionState.UP)))
                .contains(new DegradedPart("channel:db", "FAILED", DestinationParts.FORWARDER_FAILED
                        + " (last error: forwarder failed: java.lang.OutOfMemoryError: Java heap space)"));
    }
}
