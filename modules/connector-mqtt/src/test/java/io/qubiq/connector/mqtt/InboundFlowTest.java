package io.qubiq.connector.mqtt;

import static org.assertj.core.api.Assertions.assertThat;

import io.qubiq.core.tag.Custody;
import io.qubiq.core.tag.CustodyReceipt;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** When the broker hears an acknowledgement: only for messages the connector took and the gateway kept. */
class InboundFlowTest {

    private final List<String> heard = new CopyOnWriteArrayList<>();
    private final List<Custody> shares = new CopyOnWriteArrayList<>();
    private boolean take = true;
    /** Shares each QoS 1/2 message's receipt takes, as durable subscribers would. */
    private int holders;
    private final BrokerClient.Events events = new BrokerClient.Events() {
        @Override
        public void connected(boolean sessionPresent) {
        }

        @Override
        public void disconnected(Throwable cause) {
        }

        @Override
        public boolean message(String topic, byte[] payload, CustodyReceipt receipt) {
            heard.add(topic);
            for (int i = 0; i < holders && receipt != null; i++) {
                shares.add(receipt.share());
            }
            return take;
        }
    };
    private final InboundFlow inbound = new InboundFlow(events);

    @Test
    void aMessageTheConnectorTookIsAcknowledgedAfterItWasHandedOver() {
        int flow = inbound.open();
        List<String> order = new ArrayList<>();
        inbound.deliver(flow, "a/b", new byte[0], 1, () -> order.add("ack after " + heard));

        assertThat(order).containsExactly("ack after [a/b]");
    }

    @Test
    void aMessageTheConnectorDidNotTakeIsNotAcknowledgedSoTheBrokerRedeliversIt() {
        // Would catch an acknowledgement sent on arrival: a message dropped while closing would be lost.
        int flow = inbound.open();
        take = false;
        AtomicInteger acks = new AtomicInteger();
        inbound.deliver(flow, "a/b", new byte[0], 1, acks::incrementAndGet);

        assertThat(heard).containsExactly("a/b");
        assertThat(acks).hasValue(0);
        assertThat(inbound.awaitingAcknowledgement()).isZero();
    }

    @Test
    void aQos1MessageIsAcknowledgedOnlyOnceEveryDurableSubscriberReleasedItsShare() {
        int flow = inbound.open();
        holders = 2;
        AtomicInteger acks = new AtomicInteger();
        inbound.deliver(flow, "a/b", new byte[0], 1, acks::incrementAndGet);

        assertThat(acks).as("both shares held").hasValue(0);
        assertThat(inbound.awaitingAcknowledgement()).isOne();
        shares.get(0).release();
        shares.get(0).release();
        assertThat(acks).as("one share released, twice").hasValue(0);
        shares.get(1).release();
        assertThat(acks).hasValue(1);
        assertThat(inbound.awaitingAcknowledgement()).isZero();
    }

    @Test
    void aMessageNotTakenIsNeverAcknowledgedEvenWhenItsSharesAreReleasedLater() {
        int flow = inbound.open();
        holders = 1;
        take = false;
        AtomicInteger acks = new AtomicInteger();
        inbound.deliver(flow, "a/b", new byte[0], 2, acks::incrementAndGet);
        shares.get(0).release();

        assertThat(acks).hasValue(0);
        assertThat(inbound.awaitingAcknowledgement()).isZero();
    }

    @Test
    void aQos0MessageIsHandedOverWithoutAReceipt() {
        int flow = inbound.open();
        holders = 1;
        AtomicInteger acks = new AtomicInteger();
        inbound.deliver(flow, "a/b", new byte[0], 0, acks::incrementAndGet);

        assertThat(shares).isEmpty();
        assertThat(acks).hasValue(1);
    }

    @Test
    void aFullWindowMakesTheNextMessageWaitUntilAShareIsReleased() throws Exception {
        InboundFlow bounded = new InboundFlow(events, new AcknowledgementWindow("test", 2, 10_000));
        int flow = bounded.open();
        holders = 1;
        AtomicInteger acks = new AtomicInteger();
        bounded.deliver(flow, "a/1", new byte[0], 1, acks::incrementAndGet);
        bounded.deliver(flow, "a/2", new byte[0], 1, acks::incrementAndGet);
        CountDownLatch third = new CountDownLatch(1);
        Thread client = new Thread(() -> {
            bounded.deliver(flow, "a/3", new byte[0], 1, acks::incrementAndGet);
            third.countDown();
        });
        client.start();

        assertThat(third.await(300, TimeUnit.MILLISECONDS)).as("taken while the window is full").isFalse();
        shares.get(0).release();
        assertThat(third.await(5, TimeUnit.SECONDS)).as("taken once a share was released").isTrue();
        client.join();
        assertThat(acks).hasValue(1);
        assertThat(bounded.awaitingAcknowledgement()).isEqualTo(2);
    }

    @Test
    void aWindowThatStaysFullTakesTheMessageAfterTheMaximumWaitWithoutAcknowledgingIt() {
        AcknowledgementWindow window = new AcknowledgementWindow("test", 1, 50);
        InboundFlow bounded = new InboundFlow(events, window);
        int flow = bounded.open();
        holders = 1;
        AtomicInteger acks = new AtomicInteger();
        bounded.deliver(flow, "a/1", new byte[0], 1, acks::incrementAndGet);
        bounded.deliver(flow, "a/2", new byte[0], 1, acks::incrementAndGet);

        assertThat(heard).containsExactly("a/1", "a/2");
        assertThat(acks).hasValue(0);
        assertThat(window.overruns()).isOne();
    }

    @Test
    void anAcknowledgementThatThrowsNeverReachesTheThreadThatReleasedTheLastShare() {
        int flow = inbound.open();
        holders = 1;
        inbound.deliver(flow, "a/b", new byte[0], 1, () -> {
            throw new IllegalStateException("the client is closed");
        });

        shares.get(0).release();

        assertThat(inbound.awaitingAcknowledgement()).isZero();
    }

    @Test
    void aSilencedFlowReleasesItsCopyWithoutDeliveringItTwice() {
        int old = inbound.open();
        int current = inbound.open();
        AtomicInteger acks = new AtomicInteger();
        inbound.deliver(old, "a/b", new byte[0], 1, acks::incrementAndGet);
        inbound.deliver(current, "a/b", new byte[0], 1, acks::incrementAndGet);

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
