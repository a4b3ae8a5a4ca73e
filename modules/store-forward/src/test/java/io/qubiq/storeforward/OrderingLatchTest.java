package io.qubiq.storeforward;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** DESIGN.md rule 3 at the level of the latch itself: it opens only on an empty backlog, never mid-append. */
class OrderingLatchTest {

    @Test
    void latchStartsClosedWhenItemsWereBufferedBeforeTheRestart() {
        assertThat(new OrderingLatch(true).isClosed()).isTrue();
        assertThat(new OrderingLatch(false).isClosed()).isFalse();
    }

    @Test
    void latchStaysClosedWhileTheBacklogIsNotEmptyAndOpensOnceItIs() {
        OrderingLatch latch = new OrderingLatch(false);
        latch.close();
        assertThat(latch.openIfEmpty(() -> false)).isFalse();
        assertThat(latch.isClosed()).isTrue();
        assertThat(latch.openIfEmpty(() -> true)).isTrue();
        assertThat(latch.isClosed()).isFalse();
    }

    @Test
    void openLatchDoesNotLookAtTheBacklogAgain() {
        OrderingLatch latch = new OrderingLatch(false);
        AtomicInteger checks = new AtomicInteger();
        assertThat(latch.openIfEmpty(() -> {
            checks.incrementAndGet();
            return false;
        })).isTrue();
        assertThat(checks).hasValue(0);
    }

    @Test
    void latchCannotOpenWhileAnAppendIsInFlightAndThenSeesThatAppend() throws Exception {
        OrderingLatch latch = new OrderingLatch(true);
        AtomicBoolean appended = new AtomicBoolean();
        CountDownLatch appending = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        Thread producer = new Thread(() -> {
            latch.shared().lock();
            try {
                appending.countDown();
                finish.await(10, TimeUnit.SECONDS);
                appended.set(true);
                latch.close();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                latch.shared().unlock();
            }
        });
        producer.start();
        assertThat(appending.await(10, TimeUnit.SECONDS)).isTrue();

        AtomicBoolean opened = new AtomicBoolean();
        AtomicBoolean decided = new AtomicBoolean();
        Thread forwarder = new Thread(() -> {
            opened.set(latch.openIfEmpty(() -> !appended.get()));
            decided.set(true);
        });
        forwarder.start();
        // the forwarder must wait for the in-flight append rather than decide on a stale "empty"
        await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(2)).until(() -> !decided.get());
        finish.countDown();
        producer.join(10_000);
        forwarder.join(10_000);

        assertThat(decided).isTrue();
        assertThat(opened).as("the latch opened although an append was in flight").isFalse();
        assertThat(latch.isClosed()).isTrue();
    }

    @Test
    void fastPathWriterHoldsOffAppendersUntilItsWriteIsDone() throws Exception {
        OrderingLatch latch = new OrderingLatch(false);
        latch.exclusive().lock();
        AtomicBoolean appenderIn = new AtomicBoolean();
        Thread appender = new Thread(() -> {
            latch.shared().lock();
            try {
                appenderIn.set(true);
            } finally {
                latch.shared().unlock();
            }
        });
        try {
            appender.start();
            await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(2)).until(() -> !appenderIn.get());
        } finally {
            latch.exclusive().unlock();
        }
        appender.join(10_000);
        assertThat(appenderIn).isTrue();
    }
}
