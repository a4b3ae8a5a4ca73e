package io.qubiq.core.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A guarded periodic task keeps its schedule whatever a run throws. Would catch the bare scheduled
 * task this replaces: the executor cancels it after the first throw (shown by the control case).
 */
class PeriodicTest {

    @Test
    void aRunThatThrowsAnErrorIsReportedAndTheNextRunsStillHappen() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        CountDownLatch fiveRuns = new CountDownLatch(5);
        List<Throwable> reported = new CopyOnWriteArrayList<>();
        ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
        try {
            scheduler.scheduleWithFixedDelay(Periodic.guarded(() -> {
                fiveRuns.countDown();
                if (runs.incrementAndGet() <= 2) {
                    throw new OutOfMemoryError("thrown by the test, run " + runs.get());
                }
            }, failure -> {
                reported.add(failure);
                throw new IllegalStateException("a failing log appender");
            }), 0, 5, TimeUnit.MILLISECONDS);

            assertThat(fiveRuns.await(10, TimeUnit.SECONDS)).as("five runs despite two Errors").isTrue();
        } finally {
            scheduler.shutdownNow();
        }
        assertThat(reported).hasSize(2).allMatch(OutOfMemoryError.class::isInstance);
    }

    @Test
    void controlWithoutTheGuardTheExecutorCancelsTheTaskAfterItsFirstThrow() {
        AtomicInteger runs = new AtomicInteger();
        ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
        try {
            ScheduledFuture<?> future = scheduler.scheduleWithFixedDelay(() -> {
                runs.incrementAndGet();
                throw new OutOfMemoryError("thrown by the test");
            }, 0, 5, TimeUnit.MILLISECONDS);

            // the schedule ends with the first throw: its future completes exceptionally, never to run again
            assertThatThrownBy(() -> future.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOf(OutOfMemoryError.class);
        } finally {
            scheduler.shutdownNow();
        }
        assertThat(runs.get()).isEqualTo(1);
    }
}
