package io.qubiq.tagbus;

import static io.qubiq.tagbus.Samples.sample;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.qubiq.core.event.AlarmEvent;
import io.qubiq.core.event.AuditEvent;
import io.qubiq.core.event.DataLoss;
import io.qubiq.core.event.EventPublisher;
import io.qubiq.core.event.LossReason;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class TagBusLossReportTest {

    private final List<DataLoss> losses = new CopyOnWriteArrayList<>();
    private final TagBus bus = new TagBus(Duration.ofSeconds(2), new EventPublisher() {
        @Override
        public void alarm(AlarmEvent event) {
        }

        @Override
        public void audit(AuditEvent event) {
        }

        @Override
        public void lost(DataLoss loss) {
            losses.add(loss);
        }
    }, Clock.systemUTC());

    @AfterEach
    void stop() throws InterruptedException {
        bus.stop();
    }

    private long reportedItems() {
        return losses.stream().mapToLong(DataLoss::items).sum();
    }

    @Test
    void everyDroppedValueIsReportedAsTagBusOverflowInAFewSummedReports() {
        bus.start();
        BlockingConsumer consumer = new BlockingConsumer();
        Subscription subscription = bus.subscribe(
                SubscriptionSpec.of("historian", 3, OverflowPolicy.DROP_OLDEST, consumer).withMaxBatchValues(1));
        bus.publish(sample("oven/temp", 0));
        await().until(consumer::isBlocked);
        for (int n = 1; n <= 10_000; n++) {
            bus.publish(sample("oven/temp", n));
        }
        consumer.release();

        await().until(() -> reportedItems() == subscription.stats().dropped());
        assertThat(subscription.stats().dropped()).isEqualTo(10_000 - 3);
        assertThat(losses).hasSizeLessThanOrEqualTo(3).allSatisfy(loss -> {
            assertThat(loss.reason()).isEqualTo(LossReason.TAG_BUS_OVERFLOW);
            assertThat(loss.component()).isEqualTo("tag-bus");
            assertThat(loss.connection()).isEqualTo("historian");
            assertThat(loss.detail()).contains("queue full at 3 values");
        });
    }

    @Test
    void dropsOfASubscriberThatNeverCatchesUpAreReportedWhenTheBusStops() throws InterruptedException {
        bus.start();
        BlockingConsumer consumer = new BlockingConsumer();
        Subscription subscription = bus.subscribe(
                SubscriptionSpec.of("slow", 2, OverflowPolicy.DROP_NEWEST, consumer).withMaxBatchValues(1));
        bus.publish(sample("oven/temp", 0));
        await().until(consumer::isBlocked);
        for (int n = 1; n <= 50; n++) {
            bus.publish(sample("oven/temp", n));
        }
        bus.stop();
        assertThat(reported(LossReason.TAG_BUS_OVERFLOW)).isEqualTo(subscription.stats().dropped()).isEqualTo(48);
        assertThat(reported(LossReason.SUBSCRIBER_CLOSED)).as("the two still queued at the stop")
                .isEqualTo(subscription.stats().queued()).isEqualTo(2);
    }

    private long reported(LossReason reason) {
        return losses.stream().filter(loss -> loss.reason() == reason).mapToLong(DataLoss::items).sum();
    }

    /**
     * A pipeline removed (or its trigger changed) while the gateway runs closes its subscription: what was
     * queued for it is never delivered. Would catch those values vanishing without a ledger entry.
     */
    @Test
    void valuesStillQueuedWhenASubscriptionIsClosedAreReportedAsSubscriberClosed() {
        bus.start();
        BlockingConsumer consumer = new BlockingConsumer();
        Subscription subscription = bus.subscribe(
                SubscriptionSpec.of("pipeline-p1", 100, OverflowPolicy.DROP_OLDEST, consumer).withMaxBatchValues(1));
        bus.publish(sample("oven/temp", 0));
        await().until(consumer::isBlocked);
        for (int n = 1; n <= 7; n++) {
            bus.publish(sample("oven/temp", n));
        }

        subscription.close();

        assertThat(losses).singleElement().satisfies(loss -> {
            assertThat(loss.reason()).isEqualTo(LossReason.SUBSCRIBER_CLOSED);
            assertThat(loss.items()).isEqualTo(7);
            assertThat(loss.connection()).isEqualTo("pipeline-p1");
            assertThat(loss.detail()).contains("7 value(s) still queued");
        });
    }

    /**
     * A graceful stop drains first: the historian and the pipelines call {@link Subscription#drain} before they
     * close. Would catch a drain that returns while a batch is still in the consumer's hands (the queue empty
     * but the work not done), or values discarded that the consumer could have taken.
     */
    @Test
    void aDrainLetsTheConsumerHandleEverythingQueuedSoTheCloseLosesNothing() throws Exception {
        bus.start();
        BlockingConsumer consumer = new BlockingConsumer();
        Subscription subscription = bus.subscribe(
                SubscriptionSpec.of("historian", 100, OverflowPolicy.DROP_OLDEST, consumer).withMaxBatchValues(1));
        bus.publish(sample("oven/temp", 0));
        await().until(consumer::isBlocked);
        for (int n = 1; n <= 7; n++) {
            bus.publish(sample("oven/temp", n));
        }
        assertThat(subscription.drain(Duration.ofMillis(200))).as("the consumer is still blocked").isFalse();
        Thread release = new Thread(() -> {
            sleepQuietly(300);
            consumer.release();
        });
        release.start();

        assertThat(subscription.drain(Duration.ofSeconds(10))).isTrue();
        subscription.close();

        assertThat(subscription.stats().delivered()).isEqualTo(8);
        assertThat(losses).isEmpty();
    }

    private static void sleepQuietly(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void aSubscriptionClosedWithNothingQueuedReportsNothing() {
        bus.start();
        Subscription subscription = bus.subscribe(SubscriptionSpec.of("idle", 10, OverflowPolicy.DROP_OLDEST, batch -> { }));
        bus.publish(sample("oven/temp", 1));
        await().until(() -> subscription.stats().delivered() == 1);

        subscription.close();

        assertThat(losses).isEmpty();
    }
}
