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
        assertThat(reportedItems()).isEqualTo(subscription.stats().dropped()).isEqualTo(48);
    }
}
