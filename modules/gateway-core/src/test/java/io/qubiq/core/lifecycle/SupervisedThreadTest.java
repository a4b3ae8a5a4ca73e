package io.qubiq.core.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A worker thread that does not stay dead, and stops when asked even while waiting to restart. */
class SupervisedThreadTest {

    private final List<String> heard = new CopyOnWriteArrayList<>();

    private final SupervisedThread.Listener listener = new SupervisedThread.Listener() {
        @Override
        public void failed(Throwable error, int consecutiveFailures, long restartInMs) {
            heard.add("failed " + consecutiveFailures + " " + error.getClass().getSimpleName() + " in " + restartInMs);
        }

        @Override
        public void recovered() {
            heard.add("recovered");
        }
    };

    // Catches a worker that an Error (not only an exception) leaves dead, and a recovery that is never told.
    @Test
    void aBodyThatThrowsErrorsIsRunAgainOnANewThreadWithGrowingBackoffAndRecoveryIsToldOnce() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        List<String> threads = new CopyOnWriteArrayList<>();
        CountDownLatch stop = new CountDownLatch(1);
        SupervisedThread[] self = new SupervisedThread[1];
        SupervisedThread supervised = new SupervisedThread("worker", () -> {
            threads.add(Thread.currentThread().getName() + "@" + System.identityHashCode(Thread.currentThread()));
            if (runs.incrementAndGet() <= 2) {
                throw new OutOfMemoryError("scripted");
            }
            self[0].workedNormally();
            self[0].workedNormally();
            try {
                stop.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, 10, 1_000, listener);
        self[0] = supervised;
        supervised.start();

        await().until(() -> heard.contains("recovered"));
        assertThat(heard).containsExactly("failed 1 OutOfMemoryError in 10", "failed 2 OutOfMemoryError in 20",
                "recovered");
        assertThat(supervised.restarts()).isEqualTo(2);
        assertThat(supervised.failing()).isFalse();
        assertThat(threads).hasSize(3).doesNotHaveDuplicates().allMatch(name -> name.startsWith("worker@"));
        supervised.requestStop();
        stop.countDown();
        assertThat(supervised.join(5_000)).isTrue();
    }

    // Catches a stop that has to sit out the restart backoff (a channel stop taking the whole max backoff).
    @Test
    void aStopDuringTheRestartBackoffCallsTheRestartOffAtOnce() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        SupervisedThread supervised = new SupervisedThread("worker", () -> {
            runs.incrementAndGet();
            throw new IllegalStateException("bug");
        }, 60_000, 60_000, listener);
        supervised.start();
        await().until(() -> heard.size() == 1);
        assertThat(supervised.failing()).isTrue();

        supervised.requestStop();
        assertThat(supervised.join(5_000)).isTrue();
        assertThat(runs).hasValue(1);
        assertThat(supervised.restarts()).isZero();
    }
}
