package io.qubiq.core.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
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
        List<Throwable> reported = new CopyOnWriteArrayList<>();
        ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
        try {
            scheduler.scheduleWithFixedDelay(Periodic.guarded(() -> {
                if (runs.incrementAndGet() <= 2) {
                    throw new OutOfMemoryError("thrown by the test, run " + runs.get());
                }
            }, failure -> {
                reported.add(failure);
                throw new IllegalStateException("a failing log appender");
            }), 0, 5, TimeUnit.MILLISECONDS);

            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (runs.get() < 5 && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
        } finally {
            scheduler.shutdownNow();
        }
        assertThat(runs.get()).isGreaterThanOrEqualTo(5);
        assertThat(reported).hasSize(2).allMatch(OutOfMemoryError.class::isInstance);
    }

    @Test
    void controlWithoutTheGuardTheExecutorCancelsTheTaskAfterItsFirstThrow() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
        try {
            var future = scheduler.scheduleWithFixedDelay(() -> {
                runs.incrementAndGet();
                throw new OutOfMemoryError("thrown by the test");
            }, 0, 5, TimeUnit.MILLISECONDS);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!future.isDone() && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            Thread.sleep(50);
        } finally {
            scheduler.shutdownNow();
        }
        assertThat(runs.get()).isEqualTo(1);
    }
}
