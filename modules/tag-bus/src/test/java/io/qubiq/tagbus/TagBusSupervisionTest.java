package io.qubiq.tagbus;

import static io.qubiq.tagbus.Samples.number;
import static io.qubiq.tagbus.Samples.sample;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.qubiq.core.event.AlarmEvent;
import io.qubiq.core.event.AuditEvent;
import io.qubiq.core.event.DataLoss;
import io.qubiq.core.event.EventPublisher;
import io.qubiq.core.event.LossReason;
import io.qubiq.core.event.SubscriberFailedAlarm;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A consumer that throws never ends its subscriber. Before supervision, an {@code Error} from a
 * consumer ended the delivery thread for good (no alarm, nothing on /health, the queue filled and
 * overflowed), and values a consumer threw on were counted but never reached the loss ledger.
 */
class TagBusSupervisionTest {

    private final List<DataLoss> losses = new CopyOnWriteArrayList<>();
    private final List<AlarmEvent> alarms = new CopyOnWriteArrayList<>();
    private final TagBus bus = new TagBus(Duration.ofSeconds(2), new EventPublisher() {
        @Override
        public void alarm(AlarmEvent event) {
            alarms.add(event);
        }

        @Override
        public void audit(AuditEvent event) {
        }

        @Override
        public void lost(DataLoss loss) {
            losses.add(loss);
        }
    }, Clock.systemUTC());
    private final List<Long> received = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() throws InterruptedException {
        bus.stop();
    }

    private List<SubscriberFailedAlarm> subscriberAlarms() {
        return alarms.stream().filter(SubscriberFailedAlarm.class::isInstance).map(SubscriberFailedAlarm.class::cast)
                .toList();
    }

    @Test
    void aHandlerThatThrowsForOneValueLosesOnlyThatValueCountedInTheLedgerAndTheSubscriberGoesOn() {
        bus.start();
        Subscription subscription = bus.subscribe(SubscriptionSpec.perValue("pipeline-p1", 100,
                OverflowPolicy.DROP_OLDEST, value -> {
                    if (number(value) == 5) {
                        throw new IllegalArgumentException("expression failed on 5");
                    }
                    received.add(number(value));
                }));
        for (int n = 0; n < 10; n++) {
            bus.publish(sample("line/speed", n));
        }

        await().until(() -> received.size() == 9);
        assertThat(received).containsExactly(0L, 1L, 2L, 3L, 4L, 6L, 7L, 8L, 9L);
        assertThat(subscription.stats().failed()).isEqualTo(1);
        assertThat(subscription.stats().consumerErrors()).isEqualTo(1);
        await().until(() -> losses.stream().mapToLong(DataLoss::items).sum() == 1);
        assertThat(losses).singleElement().satisfies(loss -> {
            assertThat(loss.reason()).isEqualTo(LossReason.SUBSCRIBER_FAILED);
            assertThat(loss.component()).isEqualTo("tag-bus");
            assertThat(loss.connection()).isEqualTo("pipeline-p1");
        });
        assertThat(subscriberAlarms()).isEmpty();
        assertThat(((Subscriber) subscription).restarts()).isZero();
    }

    @Test
    void aHandlerThatThrowsAnErrorRestartsItsThreadWithAnAlarmThatClearsOnceItDeliversAgain() throws Exception {
        AtomicBoolean thrown = new AtomicBoolean();
        CountDownLatch release = new CountDownLatch(1);
        bus.start();
        Subscription subscription = bus.subscribe(SubscriptionSpec.perValue("historian", 100,
                OverflowPolicy.DROP_OLDEST, value -> {
                    if (number(value) == 3 && thrown.compareAndSet(false, true)) {
                        throw new OutOfMemoryError("Java heap space (scripted)");
                    }
                    if (thrown.get()) {
                        try {
                            release.await(30, TimeUnit.SECONDS); // hold the restarted thread for the checks
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                    received.add(number(value));
                }));
        for (int n = 0; n < 10; n++) {
            bus.publish(sample("line/speed", n));
        }

        await().until(() -> ((Subscriber) subscription).restarts() == 1);
        assertThat(subscriberAlarms()).singleElement().satisfies(alarm -> {
            assertThat(alarm.active()).isTrue();
            assertThat(alarm.key()).isEqualTo("subscriber-failed/historian");
            assertThat(alarm.error()).isEqualTo("java.lang.OutOfMemoryError: Java heap space (scripted)");
        });
        assertThat(bus.failingSubscribers()).containsOnlyKeys("historian");

        release.countDown();
        await().until(() -> received.size() == 9);
        assertThat(received).containsExactlyElementsOf(LongStream.range(0, 10).filter(n -> n != 3).boxed().toList());
        await().until(() -> subscriberAlarms().size() == 2);
        assertThat(subscriberAlarms().get(1).active()).isFalse();
        assertThat(bus.failingSubscribers()).isEmpty();
        assertThat(subscription.stats().failed()).isEqualTo(1);
        await().until(() -> losses.stream().filter(loss -> loss.reason() == LossReason.SUBSCRIBER_FAILED)
                .mapToLong(DataLoss::items).sum() == 1);
    }
}
