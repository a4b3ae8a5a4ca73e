package io.qubiq.tagbus;

import io.qubiq.core.tag.TagPath;
import io.qubiq.core.tag.TagValue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static io.qubiq.tagbus.Samples.sample;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

class TagBusFanOutTest {

    private final TagBus bus = new TagBus(Duration.ofSeconds(2));

    @BeforeEach
    void start() {
        bus.start();
    }

    @AfterEach
    void stop() throws InterruptedException {
        bus.stop();
    }

    @Test
    void everySubscriberReceivesEveryPublishedValueInOrder() {
        List<RecordingConsumer> consumers = List.of(new RecordingConsumer(), new RecordingConsumer(),
                new RecordingConsumer());
        String[] names = {"historian", "pipelines", "alarms"};
        for (int i = 0; i < names.length; i++) {
            bus.subscribe(SubscriptionSpec.of(names[i], 10_000, OverflowPolicy.DROP_OLDEST, consumers.get(i)));
        }
        List<TagValue> published = new ArrayList<>();
        for (int n = 0; n < 1_000; n++) {
            TagValue value = sample("plant1/line" + (n % 10) + "/temp", n);
            published.add(value);
            bus.publish(value);
        }

        for (RecordingConsumer consumer : consumers) {
            await().atMost(Duration.ofSeconds(5)).until(() -> consumer.count() == published.size());
            assertThat(consumer.received()).containsExactlyElementsOf(published);
        }
        TagBusStats stats = bus.stats();
        assertThat(stats.published()).isEqualTo(1_000);
        assertThat(stats.tags()).isEqualTo(10);
        assertThat(stats.subscribers()).extracting(SubscriberStats::name)
                .containsExactly("alarms", "historian", "pipelines");
        assertThat(stats.subscribers()).allSatisfy(s -> {
            assertThat(s.delivered()).isEqualTo(1_000);
            assertThat(s.dropped()).isZero();
            assertThat(s.queued()).isZero();
        });
    }

    @Test
    void subscribersAddedAndRemovedWhilePublishingLeaveTheOthersEveryValueInOrder() throws Exception {
        RecordingConsumer steady = new RecordingConsumer();
        bus.subscribe(SubscriptionSpec.of("historian", 100_000, OverflowPolicy.DROP_OLDEST, steady));
        int total = 20_000;
        Thread publisher = new Thread(() -> {
            for (int n = 0; n < total; n++) {
                bus.publish(sample("plant1/line" + (n % 7) + "/temp", n));
            }
        });
        publisher.start();
        List<RecordingConsumer> late = new ArrayList<>();
        for (int i = 0; publisher.isAlive() && i < 40; i++) {
            RecordingConsumer consumer = new RecordingConsumer();
            Subscription subscription = bus.subscribe(SubscriptionSpec.of("late" + i, 100_000,
                    OverflowPolicy.DROP_OLDEST, consumer));
            late.add(consumer);
            if (i % 2 == 1) {
                subscription.close();
            }
        }
        publisher.join();

        await().atMost(Duration.ofSeconds(10)).until(() -> steady.count() == total);
        assertThat(steady.received()).extracting(Samples::number)
                .isEqualTo(java.util.stream.LongStream.range(0, total).boxed().toList());
        for (RecordingConsumer consumer : late) {
            List<Long> numbers = consumer.received().stream().map(Samples::number).toList();
            assertThat(numbers).doesNotHaveDuplicates().isSorted();
        }
        assertThat(bus.stats().published()).isEqualTo(total);
    }

    @Test
    void consumerReceivesBatchesNoLargerThanTheMaximum() {
        List<Integer> batchSizes = new ArrayList<>();
        BlockingConsumer gate = new BlockingConsumer();
        bus.subscribe(SubscriptionSpec.of("historian", 100, OverflowPolicy.DROP_NEWEST, batch -> {
            gate.accept(batch);
            synchronized (batchSizes) {
                batchSizes.add(batch.size());
            }
        }).withMaxBatchValues(4));
        bus.publish(sample("a", 0));
        await().until(gate::isBlocked);
        for (int n = 1; n <= 10; n++) {
            bus.publish(sample("a", n));
        }
        gate.release();

        await().until(() -> gate.recorder().count() == 11);
        synchronized (batchSizes) {
            assertThat(batchSizes).containsExactly(1, 4, 4, 2);
        }
    }

    @Test
    void prefixFilterPassesTheTagAndItsDescendantsOnlyByWholeSegments() {
        RecordingConsumer line1 = new RecordingConsumer();
        RecordingConsumer everything = new RecordingConsumer();
        bus.subscribe(SubscriptionSpec.of("line1-view", 100, OverflowPolicy.DROP_OLDEST, line1)
                .withFilter(TagFilter.under(TagPath.of("plant1/line1"))));
        bus.subscribe(SubscriptionSpec.of("all", 100, OverflowPolicy.DROP_OLDEST, everything));

        bus.publish(sample("plant1/line1/oven/temp", 1));
        bus.publish(sample("plant1/line10/oven/temp", 2));
        bus.publish(sample("plant1/line1", 3));
        bus.publish(sample("plant2/line1/oven/temp", 4));
        bus.publish(sample("plant1/line1/speed", 5));

        await().until(() -> everything.count() == 5);
        await().until(() -> line1.count() == 3);
        assertThat(line1.received()).extracting(value -> value.path().value())
                .containsExactly("plant1/line1/oven/temp", "plant1/line1", "plant1/line1/speed");
    }

    @Test
    void perValueConsumerReceivesValuesOneByOne() {
        List<TagValue> received = new ArrayList<>();
        bus.subscribe(SubscriptionSpec.perValue("console", 100, OverflowPolicy.DROP_OLDEST, value -> {
            synchronized (received) {
                received.add(value);
            }
        }));
        bus.publish(sample("a", 1));
        bus.publish(sample("b", 2));

        await().until(() -> bus.stats().subscribers().get(0).delivered() == 2);
        synchronized (received) {
            assertThat(received).containsExactly(sample("a", 1), sample("b", 2));
        }
    }

    @Test
    void duplicateSubscriberNameIsRejectedWithAClearError() {
        bus.subscribe(SubscriptionSpec.of("historian", 10, OverflowPolicy.DROP_OLDEST, new RecordingConsumer()));

        assertThatThrownBy(() -> bus.subscribe(
                SubscriptionSpec.of("historian", 20, OverflowPolicy.DROP_NEWEST, new RecordingConsumer())))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a tag bus subscriber named \"historian\" already exists; subscriber names must be unique");
        assertThat(bus.stats().subscribers()).singleElement().extracting(SubscriberStats::capacity).isEqualTo(10);
    }

    @Test
    void closedSubscriptionReceivesNothingMoreAndFreesItsName() {
        RecordingConsumer first = new RecordingConsumer();
        Subscription subscription = bus.subscribe(SubscriptionSpec.of("console", 10, OverflowPolicy.DROP_OLDEST, first));
        bus.publish(sample("a", 1));
        await().until(() -> first.count() == 1);

        subscription.close();
        subscription.close();
        bus.publish(sample("a", 2));
        RecordingConsumer second = new RecordingConsumer();
        bus.subscribe(SubscriptionSpec.of("console", 10, OverflowPolicy.DROP_OLDEST, second));
        bus.publish(sample("a", 3));

        await().until(() -> second.count() == 1);
        assertThat(first.numbersOf("a")).containsExactly(1L);
        assertThat(second.numbersOf("a")).containsExactly(3L);
        assertThat(Thread.getAllStackTraces().keySet()).extracting(Thread::getName)
                .containsOnlyOnce("tagbus-console");
    }

    @Test
    void subscriptionCanCloseItselfFromItsOwnConsumer() {
        List<Subscription> self = new ArrayList<>();
        RecordingConsumer recorder = new RecordingConsumer();
        Subscription subscription = bus.subscribe(SubscriptionSpec.perValue("once", 10, OverflowPolicy.DROP_OLDEST,
                value -> {
                    recorder.accept(List.of(value));
                    synchronized (self) {
                        self.get(0).close();
                    }
                }));
        synchronized (self) {
            self.add(subscription);
        }

        bus.publish(sample("a", 1));

        await().until(() -> bus.stats().subscribers().isEmpty());
        await().until(() -> Thread.getAllStackTraces().keySet().stream()
                .noneMatch(thread -> thread.getName().equals("tagbus-once")));
        assertThat(recorder.numbersOf("a")).containsExactly(1L);
    }

    @Test
    void latestValueTableHoldsTheLastValueOfEveryTagSortedByPath() {
        bus.publish(sample("plant1/b", 1));
        bus.publish(sample("plant1/a", 2));
        bus.publish(sample("plant1/b", 3));
        bus.publish(sample("plant0/z", 4));

        LatestValues latest = bus.latestValues();
        assertThat(latest.size()).isEqualTo(3);
        assertThat(latest.latest(TagPath.of("plant1/b"))).contains(sample("plant1/b", 3));
        assertThat(latest.latest(TagPath.of("plant1/c"))).isEmpty();
        assertThat(latest.snapshot()).containsExactly(sample("plant0/z", 4), sample("plant1/a", 2),
                sample("plant1/b", 3));
        assertThatThrownBy(() -> latest.snapshot().clear()).isInstanceOf(UnsupportedOperationException.class);
    }
}
