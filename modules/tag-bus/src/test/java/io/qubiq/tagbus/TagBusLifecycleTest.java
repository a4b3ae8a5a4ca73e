package io.qubiq.tagbus;

import io.qubiq.core.lifecycle.ComponentState;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

import static io.qubiq.tagbus.Samples.sample;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

class TagBusLifecycleTest {

    private final AtomicBoolean releaseStubbornConsumer = new AtomicBoolean();

    @AfterEach
    void releaseAbandonedThreads() {
        releaseStubbornConsumer.set(true);
    }

    @Test
    void busIsNamedTagBus() {
        assertThat(new TagBus().name()).isEqualTo("tag-bus");
    }

    @Test
    void subscriberAddedBeforeStartReceivesValuesOnceStarted() throws InterruptedException {
        TagBus bus = new TagBus(Duration.ofSeconds(2));
        RecordingConsumer consumer = new RecordingConsumer();
        bus.subscribe(SubscriptionSpec.of("historian", 10, OverflowPolicy.DROP_OLDEST, consumer));
        assertThat(threadNamed("tagbus-historian")).isFalse();

        bus.start();
        bus.start();
        bus.publish(sample("a", 1));

        await().until(() -> consumer.count() == 1);
        assertThat(threadNamed("tagbus-historian")).isTrue();
        assertThat(bus.state()).isEqualTo(ComponentState.RUNNING);
        bus.stop();
    }

    @Test
    void publishIsRejectedBeforeStartAndAfterStop() throws InterruptedException {
        TagBus bus = new TagBus(Duration.ofSeconds(2));

        assertThatThrownBy(() -> bus.publish(sample("plant1/temp", 1)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("the tag bus is NEW: value of plant1/temp rejected "
                        + "(connectors must start after the tag bus and stop before it)");
        bus.start();
        bus.publish(sample("plant1/temp", 2));
        bus.stop();
        assertThatThrownBy(() -> bus.publish(sample("plant1/temp", 3)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("the tag bus is STOPPED");

        assertThat(bus.stats().published()).isEqualTo(1);
        assertThat(bus.latestValues().snapshot()).containsExactly(sample("plant1/temp", 2));
    }

    @Test
    void stopInterruptsABlockedConsumerAndIsIdempotent() throws InterruptedException {
        TagBus bus = new TagBus(Duration.ofSeconds(5));
        bus.start();
        BlockingConsumer blocked = new BlockingConsumer();
        Subscription subscription = bus.subscribe(SubscriptionSpec.of("historian", 10, OverflowPolicy.DROP_OLDEST, blocked));
        bus.publish(sample("a", 0));
        await().until(blocked::isBlocked);
        bus.publish(sample("a", 1));

        long started = System.nanoTime();
        bus.stop();
        bus.stop();

        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(2));
        assertThat(threadNamed("tagbus-historian")).isFalse();
        assertThat(bus.state()).isEqualTo(ComponentState.STOPPED);
        assertThat(subscription.stats().queued()).as("left undelivered").isEqualTo(1);
        assertThat(subscription.stats().delivered()).isZero();
    }

    @Test
    void stopIsBoundedEvenWhenAConsumerIgnoresInterruption() throws InterruptedException {
        TagBus bus = new TagBus(Duration.ofMillis(300));
        bus.start();
        AtomicBoolean entered = new AtomicBoolean();
        bus.subscribe(SubscriptionSpec.of("stubborn", 10, OverflowPolicy.DROP_OLDEST, batch -> {
            entered.set(true);
            while (!releaseStubbornConsumer.get()) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5)); // ignores interruption
            }
        }));
        bus.publish(sample("a", 0));
        await().untilTrue(entered);

        long started = System.nanoTime();
        bus.stop();

        Duration took = Duration.ofNanos(System.nanoTime() - started);
        assertThat(took).isBetween(Duration.ofMillis(250), Duration.ofSeconds(2));
        assertThat(bus.state()).isEqualTo(ComponentState.STOPPED);
        releaseStubbornConsumer.set(true);
        await().until(() -> !threadNamed("tagbus-stubborn"));
    }

    @Test
    void stoppedBusRefusesSubscribersAndRestart() throws InterruptedException {
        TagBus bus = new TagBus();
        bus.start();
        bus.stop();

        assertThatThrownBy(() -> bus.subscribe(
                SubscriptionSpec.of("late", 10, OverflowPolicy.DROP_OLDEST, new RecordingConsumer())))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("the tag bus is STOPPED: cannot subscribe late");
        assertThatThrownBy(bus::start)
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("the tag bus is STOPPED and cannot start again");
    }

    @Test
    void busNeverStartedStopsAtOnce() throws InterruptedException {
        TagBus bus = new TagBus();
        bus.subscribe(SubscriptionSpec.of("historian", 10, OverflowPolicy.DROP_OLDEST, new RecordingConsumer()));

        bus.stop();

        assertThat(bus.state()).isEqualTo(ComponentState.STOPPED);
        assertThat(threadNamed("tagbus-historian")).isFalse();
    }

    @Test
    void deliveryThreadIsANamedDaemon() throws InterruptedException {
        TagBus bus = new TagBus(Duration.ofSeconds(2));
        bus.start();
        bus.subscribe(SubscriptionSpec.of("console", 10, OverflowPolicy.DROP_OLDEST, new RecordingConsumer()));

        assertThat(Thread.getAllStackTraces().keySet())
                .filteredOn(thread -> thread.getName().equals("tagbus-console"))
                .singleElement()
                .satisfies(thread -> assertThat(thread.isDaemon()).isTrue());
        bus.stop();
    }

    private static boolean threadNamed(String name) {
        return Thread.getAllStackTraces().keySet().stream()
                .anyMatch(thread -> thread.getName().equals(name) && thread.isAlive());
    }
}
