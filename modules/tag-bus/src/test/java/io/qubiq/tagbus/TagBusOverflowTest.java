package io.qubiq.tagbus;

import io.qubiq.core.tag.TagPath;
import io.qubiq.core.tag.TagValue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static io.qubiq.tagbus.Samples.sample;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class TagBusOverflowTest {

    private final TagBus bus = new TagBus(Duration.ofSeconds(2));

    @BeforeEach
    void start() {
        bus.start();
    }

    @AfterEach
    void stop() throws InterruptedException {
        bus.stop();
    }

    /** Publishes sample 0, waits until the consumer holds it, then publishes samples 1 to {@code last}. */
    private void fillWhileBlocked(BlockingConsumer consumer, int last) {
        bus.publish(sample("oven/temp", 0));
        await().until(consumer::isBlocked);
        for (int n = 1; n <= last; n++) {
            bus.publish(sample("oven/temp", n));
        }
    }

    @Test
    void dropOldestDiscardsTheOldestQueuedValuesAndCountsEachOne() {
        BlockingConsumer consumer = new BlockingConsumer();
        Subscription subscription = bus.subscribe(
                SubscriptionSpec.of("alarms", 3, OverflowPolicy.DROP_OLDEST, consumer).withMaxBatchValues(1));

        fillWhileBlocked(consumer, 10);

        assertThat(subscription.stats()).isEqualTo(
                new SubscriberStats("alarms", OverflowPolicy.DROP_OLDEST, 3, 3, 0, 7, 0, 0));
        consumer.release();
        await().until(() -> subscription.stats().delivered() == 4);
        assertThat(consumer.recorder().numbersOf("oven/temp")).containsExactly(0L, 8L, 9L, 10L);
        assertThat(subscription.stats().dropped()).isEqualTo(7);
        assertThat(subscription.stats().queued()).isZero();
    }

    @Test
    void dropNewestDiscardsTheIncomingValuesAndCountsEachOne() {
        BlockingConsumer consumer = new BlockingConsumer();
        Subscription subscription = bus.subscribe(
                SubscriptionSpec.of("historian", 3, OverflowPolicy.DROP_NEWEST, consumer));

        fillWhileBlocked(consumer, 10);

        assertThat(subscription.stats()).isEqualTo(
                new SubscriberStats("historian", OverflowPolicy.DROP_NEWEST, 3, 3, 0, 7, 0, 0));
        consumer.release();
        await().until(() -> subscription.stats().delivered() == 4);
        assertThat(consumer.recorder().numbersOf("oven/temp")).containsExactly(0L, 1L, 2L, 3L);
        assertThat(subscription.stats().dropped()).isEqualTo(7);
    }

    @Test
    void latestValueIsTheLastPublishedEvenWhenASubscriberDroppedIt() {
        BlockingConsumer consumer = new BlockingConsumer();
        bus.subscribe(SubscriptionSpec.of("historian", 1, OverflowPolicy.DROP_NEWEST, consumer));

        fillWhileBlocked(consumer, 5);

        assertThat(bus.latestValues().latest(TagPath.of("oven/temp"))).contains(sample("oven/temp", 5));
        consumer.release();
    }

    @Test
    void slowSubscriberOverflowIsCountedAndDoesNotDelayOthers() {
        BlockingConsumer slow = new BlockingConsumer();
        RecordingConsumer fast = new RecordingConsumer();
        Subscription slowSubscription = bus.subscribe(
                SubscriptionSpec.of("slow", 10, OverflowPolicy.DROP_OLDEST, slow));
        Subscription fastSubscription = bus.subscribe(
                SubscriptionSpec.of("fast", 10_000, OverflowPolicy.DROP_OLDEST, fast));

        fillWhileBlocked(slow, 5_000);

        await().atMost(Duration.ofSeconds(5)).until(() -> fast.count() == 5_001);
        assertThat(slow.isBlocked()).isTrue();
        assertThat(slowSubscription.stats().dropped()).isEqualTo(5_000 - 10);
        assertThat(slowSubscription.stats().queued()).isEqualTo(10);
        assertThat(fastSubscription.stats().dropped()).isZero();
        assertThat(bus.stats().published()).isEqualTo(5_001);
        slow.release();
        await().until(() -> slowSubscription.stats().delivered() == 11);
    }

    @Test
    void throwingConsumerIsCountedAndDeliveryContinues() {
        AtomicInteger calls = new AtomicInteger();
        RecordingConsumer recorder = new RecordingConsumer();
        Subscription subscription = bus.subscribe(SubscriptionSpec.perValue("pipeline", 100, OverflowPolicy.DROP_OLDEST,
                value -> {
                    if (calls.incrementAndGet() % 2 == 0) {
                        throw new IllegalStateException("expression failed on " + value.path());
                    }
                    recorder.accept(List.of(value));
                }));

        for (int n = 1; n <= 6; n++) {
            bus.publish(sample("line/speed", n));
        }

        await().until(() -> calls.get() == 6);
        await().until(() -> subscription.stats().consumerErrors() == 3);
        assertThat(recorder.numbersOf("line/speed")).containsExactly(1L, 3L, 5L);
        SubscriberStats stats = subscription.stats();
        assertThat(stats.delivered()).isEqualTo(3);
        assertThat(stats.failed()).isEqualTo(3);
        assertThat(stats.dropped()).isZero();
    }

    @Test
    void throwingFilterIsCountedAgainstItsSubscriberOnlyAndPublishingContinues() {
        RecordingConsumer healthy = new RecordingConsumer();
        Subscription broken = bus.subscribe(SubscriptionSpec.of("broken", 10, OverflowPolicy.DROP_OLDEST,
                new RecordingConsumer()).withFilter(path -> {
                    throw new IllegalStateException("bad filter");
                }));
        bus.subscribe(SubscriptionSpec.of("healthy", 10, OverflowPolicy.DROP_OLDEST, healthy));

        bus.publish(sample("a", 1));
        bus.publish(sample("a", 2));

        await().until(() -> healthy.count() == 2);
        assertThat(broken.stats().consumerErrors()).isEqualTo(2);
        assertThat(broken.stats().failed()).isEqualTo(2);
    }

    @Test
    void everyAcceptedValueIsDeliveredDroppedFailedOrQueued() {
        BlockingConsumer consumer = new BlockingConsumer();
        Subscription subscription = bus.subscribe(
                SubscriptionSpec.of("audit", 50, OverflowPolicy.DROP_OLDEST, consumer).withMaxBatchValues(8));

        fillWhileBlocked(consumer, 999);
        consumer.release();

        await().until(() -> subscription.stats().delivered() == 51);
        SubscriberStats stats = subscription.stats();
        assertThat(stats.delivered() + stats.dropped() + stats.failed()).isEqualTo(1_000);
        List<TagValue> received = consumer.recorder().received();
        assertThat(received.get(0)).isEqualTo(sample("oven/temp", 0));
        assertThat(received.get(50)).isEqualTo(sample("oven/temp", 999));
    }
}
