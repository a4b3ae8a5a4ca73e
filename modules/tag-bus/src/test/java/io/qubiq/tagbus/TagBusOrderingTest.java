package io.qubiq.tagbus;

import io.qubiq.core.tag.TagPath;
import io.qubiq.core.tag.TagValue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.stream.LongStream;

import static io.qubiq.tagbus.Samples.sample;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class TagBusOrderingTest {

    private static final int PUBLISHERS = 4;
    private static final int TAGS_PER_PUBLISHER = 5;
    private static final int VALUES_PER_TAG = 1_000;

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
    void valuesOfEachTagArriveInPublishOrderUnderConcurrentPublishersOfDistinctTags() throws Exception {
        RecordingConsumer batched = new RecordingConsumer();
        RecordingConsumer single = new RecordingConsumer();
        bus.subscribe(SubscriptionSpec.of("historian", 100_000, OverflowPolicy.DROP_NEWEST, batched));
        bus.subscribe(SubscriptionSpec.of("alarms", 100_000, OverflowPolicy.DROP_NEWEST, single)
                .withMaxBatchValues(1));

        runConcurrently(PUBLISHERS, publisher -> {
            for (int n = 0; n < VALUES_PER_TAG; n++) {
                for (int tag = 0; tag < TAGS_PER_PUBLISHER; tag++) {
                    bus.publish(sample(tagOf(publisher, tag), n));
                }
            }
        });

        int total = PUBLISHERS * TAGS_PER_PUBLISHER * VALUES_PER_TAG;
        await().atMost(Duration.ofSeconds(10)).until(() -> batched.count() == total && single.count() == total);
        List<Long> inOrder = LongStream.range(0, VALUES_PER_TAG).boxed().toList();
        for (int publisher = 0; publisher < PUBLISHERS; publisher++) {
            for (int tag = 0; tag < TAGS_PER_PUBLISHER; tag++) {
                assertThat(batched.numbersOf(tagOf(publisher, tag))).isEqualTo(inOrder);
                assertThat(single.numbersOf(tagOf(publisher, tag))).isEqualTo(inOrder);
            }
        }
        assertThat(bus.stats().published()).isEqualTo(total);
    }

    @Test
    void concurrentPublishersOfOneTagGiveTheLatestTableAndEverySubscriberTheSameOrder() throws Exception {
        RecordingConsumer first = new RecordingConsumer();
        RecordingConsumer second = new RecordingConsumer();
        bus.subscribe(SubscriptionSpec.of("first", 100_000, OverflowPolicy.DROP_NEWEST, first));
        bus.subscribe(SubscriptionSpec.of("second", 100_000, OverflowPolicy.DROP_NEWEST, second)
                .withMaxBatchValues(7));

        runConcurrently(PUBLISHERS, publisher -> {
            for (int n = 0; n < VALUES_PER_TAG; n++) {
                bus.publish(sample("shared", publisher * 1_000_000L + n));
            }
        });

        int total = PUBLISHERS * VALUES_PER_TAG;
        await().atMost(Duration.ofSeconds(10)).until(() -> first.count() == total && second.count() == total);
        assertThat(second.received()).isEqualTo(first.received());
        TagValue lastDelivered = first.received().get(total - 1);
        assertThat(bus.latestValues().latest(TagPath.of("shared"))).contains(lastDelivered);
    }

    private static String tagOf(int publisher, int tag) {
        return "connector" + publisher + "/tag" + tag;
    }

    private interface Publisher {
        void run(int index);
    }

    /** Runs {@code threads} publishers released together, and rethrows the first failure. */
    private static void runConcurrently(int threads, Publisher publisher) throws Exception {
        CyclicBarrier startTogether = new CyclicBarrier(threads);
        List<Thread> running = new ArrayList<>();
        List<Throwable> failures = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            int index = i;
            Thread thread = new Thread(() -> {
                try {
                    startTogether.await();
                    publisher.run(index);
                } catch (Throwable e) {
                    synchronized (failures) {
                        failures.add(e);
                    }
                }
            }, "publisher-" + i);
            thread.start();
            running.add(thread);
        }
        for (Thread thread : running) {
            thread.join(Duration.ofSeconds(10).toMillis());
            assertThat(thread.isAlive()).as("%s finished", thread.getName()).isFalse();
        }
        synchronized (failures) {
            assertThat(failures).isEmpty();
        }
    }
}
