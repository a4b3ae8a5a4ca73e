package io.qubiq.tagbus;

import static io.qubiq.tagbus.Samples.sample;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.qubiq.core.tag.Custody;
import io.qubiq.core.tag.CustodyReceipt;
import io.qubiq.core.tag.TagValue;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Issue 19: which subscribers hold a source's acknowledgement, and that every share is released on every path. */
class TagBusCustodyTest {

    private final TagBus bus = new TagBus(Duration.ofSeconds(2));
    private final AtomicInteger kept = new AtomicInteger();

    @BeforeEach
    void start() {
        bus.start();
    }

    @AfterEach
    void stop() throws InterruptedException {
        bus.stop();
    }

    /** A durable subscriber that holds each batch's custody until told, optionally blocking first. */
    private static final class Durable implements CustodialConsumer {
        final List<Custody> held = new CopyOnWriteArrayList<>();
        final List<TagValue> values = new CopyOnWriteArrayList<>();
        final CountDownLatch gate;
        volatile boolean blocked;
        volatile RuntimeException failWith;

        Durable(boolean blockFirst) {
            gate = new CountDownLatch(blockFirst ? 1 : 0);
        }

        @Override
        public void accept(List<TagValue> batch, Custody custody) {
            blocked = true;
            try {
                gate.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
            blocked = false;
            values.addAll(batch);
            if (failWith != null) {
                throw failWith;
            }
            held.add(custody);
        }

        void releaseAll() {
            held.forEach(Custody::release);
        }
    }

    private CustodyReceipt publishWithReceipt(TagValue value) {
        CustodyReceipt receipt = CustodyReceipt.open(kept::incrementAndGet);
        bus.publish(value, receipt);
        receipt.published();
        return receipt;
    }

    @Test
    void aDurableSubscriberHoldsTheReceiptUntilItReleasesTheBatchCustody() {
        Durable durable = new Durable(false);
        bus.subscribe(new SubscriptionSpec("historian", 100, OverflowPolicy.DROP_OLDEST, 10, TagFilter.all(), durable));

        CustodyReceipt receipt = publishWithReceipt(sample("oven/temp", 1));
        await().until(() -> durable.held.size() == 1);
        assertThat(kept).hasValue(0);
        assertThat(receipt.holds()).isOne();

        durable.releaseAll();
        assertThat(kept).hasValue(1);
    }

    @Test
    void subscribersThatKeepNothingTakeNoShare() {
        RecordingConsumer live = new RecordingConsumer();
        bus.subscribe(SubscriptionSpec.of("console", 100, OverflowPolicy.DROP_OLDEST, live));

        publishWithReceipt(sample("oven/temp", 1));

        assertThat(kept).hasValue(1);
        await().until(() -> live.count() == 1);
    }

    @Test
    void aValueWithoutAReceiptReachesADurableSubscriberWithNothingToRelease() {
        Durable durable = new Durable(false);
        bus.subscribe(new SubscriptionSpec("historian", 100, OverflowPolicy.DROP_OLDEST, 10, TagFilter.all(), durable));

        bus.publish(sample("oven/temp", 1));

        await().until(() -> durable.held.size() == 1);
        assertThat(durable.held.get(0)).isSameAs(Custody.NONE);
    }

    @Test
    void aValueTheOverflowPolicyDiscardsReleasesItsShare() {
        Durable durable = new Durable(true);
        bus.subscribe(new SubscriptionSpec("historian", 2, OverflowPolicy.DROP_OLDEST, 1, TagFilter.all(), durable));
        publishWithReceipt(sample("oven/temp", 0));
        await().until(() -> durable.blocked);

        for (int n = 1; n <= 4; n++) {
            publishWithReceipt(sample("oven/temp", n));
        }

        assertThat(kept).as("values 1 and 2 were dropped: accounted for").hasValue(2);
        durable.gate.countDown();
        await().until(() -> durable.held.size() == 3);
        durable.releaseAll();
        assertThat(kept).hasValue(5);
    }

    @Test
    void aBatchTheConsumerThrowsOnReleasesItsShares() {
        Durable durable = new Durable(false);
        durable.failWith = new IllegalArgumentException("a bug");
        bus.subscribe(new SubscriptionSpec("historian", 100, OverflowPolicy.DROP_OLDEST, 10, TagFilter.all(), durable));

        publishWithReceipt(sample("oven/temp", 1));

        await().until(() -> kept.get() == 1);
    }

    @Test
    void valuesStillQueuedWhenTheSubscriptionEndsReleaseTheirShares() {
        Durable durable = new Durable(true);
        Subscription subscription = bus.subscribe(new SubscriptionSpec("historian", 100, OverflowPolicy.DROP_OLDEST,
                1, TagFilter.all(), durable));
        publishWithReceipt(sample("oven/temp", 0));
        await().until(() -> durable.blocked);
        publishWithReceipt(sample("oven/temp", 1));
        publishWithReceipt(sample("oven/temp", 2));

        subscription.close();

        assertThat(kept).as("the batch in hand failed when interrupted; the queued ones were never delivered")
                .hasValue(3);
    }
}
