package io.qubiq.connector.mqtt;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** When the broker hears an acknowledgement: only for messages the connector took. */
class InboundFlowTest {

    private final List<String> heard = new ArrayList<>();
    private boolean take = true;
    private final InboundFlow inbound = new InboundFlow(new BrokerClient.Events() {
        @Override
        public void connected(boolean sessionPresent) {
        }

        @Override
        public void disconnected(Throwable cause) {
        }

        @Override
        public boolean message(String topic, byte[] payload) {
            heard.add(topic);
            return take;
        }
    });

    @Test
    void aMessageTheConnectorTookIsAcknowledgedAfterItWasHandedOver() {
        int flow = inbound.open();
        List<String> order = new ArrayList<>();
        inbound.deliver(flow, "a/b", new byte[0], () -> order.add("ack after " + heard));

        assertThat(order).containsExactly("ack after [a/b]");
    }

    @Test
    void aMessageTheConnectorDidNotTakeIsNotAcknowledgedSoTheBrokerRedeliversIt() {
        // Would catch an acknowledgement sent on arrival: a message dropped while closing would be lost.
        int flow = inbound.open();
        take = false;
        AtomicInteger acks = new AtomicInteger();
        inbound.deliver(flow, "a/b", new byte[0], acks::incrementAndGet);

        assertThat(heard).containsExactly("a/b");
        assertThat(acks).hasValue(0);
    }

    @Test
    void aSilencedFlowReleasesItsCopyWithoutDeliveringItTwice() {
        int old = inbound.open();
        int current = inbound.open();
        AtomicInteger acks = new AtomicInteger();
        inbound.deliver(old, "a/b", new byte[0], acks::incrementAndGet);
        inbound.deliver(current, "a/b", new byte[0], acks::incrementAndGet);

        assertThat(heard).containsExactly("a/b");
        assertThat(acks).hasValue(2);
    }

    @Test
    void aNewFlowIsNeededOnlyWhenAReconnectFindsNoSession() {
        assertThat(inbound.needsNewFlow(false)).as("first connection").isFalse();
        assertThat(inbound.needsNewFlow(true)).as("session present").isFalse();
        assertThat(inbound.needsNewFlow(false)).as("reconnect without session").isTrue();
    }
}
