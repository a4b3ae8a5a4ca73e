package io.qubiq.pipeline.trigger;

import io.qubiq.core.time.Ticker;
import io.qubiq.pipeline.Pipeline;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One event every {@code interval}, on the shared pipeline scheduler.
 *
 * <p>Time: the rhythm is kept on the monotonic {@link Ticker}, so a wall clock stepped back does not
 * stop the timer for the size of the step, and one stepped forward brings no burst of runs. The wall
 * clock is read only to publish the next due time ({@link Pipeline#nextRunAt}) and, at start, to resume
 * from the saved one: after a restart a pipeline resumes its rhythm, and a run that fell due while the
 * gateway was down happens once, at start, rather than being skipped or repeated for every missed
 * interval. A saved due time more than one interval ahead (the wall clock was set back while the
 * gateway was down) counts as one interval from now.
 *
 * <p>Threading: started by the lifecycle thread; runs and reschedules itself on the scheduler's thread.
 */
public final class IntervalTrigger implements Trigger {

    private static final Logger LOG = LoggerFactory.getLogger(IntervalTrigger.class);

    private final ScheduledExecutorService scheduler;
    private final Duration interval;
    private final Clock clock;
    private final Ticker ticker;
    private volatile ScheduledFuture<?> next;
    private volatile boolean closed;

    /**
     * @param clock  the wall clock, for the published and saved due time only
     * @param ticker the monotonic clock the interval is measured on
     */
    public IntervalTrigger(ScheduledExecutorService scheduler, Duration interval, Clock clock, Ticker ticker) {
        this.scheduler = scheduler;
        this.interval = interval;
        this.clock = clock;
        this.ticker = ticker;
    }

    @Override
    public void start(Pipeline pipeline) {
        Instant now = clock.instant();
        long nowNanos = ticker.nanos();
        Instant due = pipeline.nextRunAt().filter(at -> at.isBefore(now.plus(interval))).orElse(now.plus(interval));
        long delayNanos = Math.max(0, Duration.between(now, due).toNanos());
        schedule(pipeline, nowNanos + delayNanos, due);
    }

    /** Schedules the run due at the ticker reading {@code dueNanos}, published as {@code dueAt}. */
    private void schedule(Pipeline pipeline, long dueNanos, Instant dueAt) {
        if (closed) {
            return;
        }
        pipeline.nextRunAt(dueAt);
        long delayNanos = Math.max(0, dueNanos - ticker.nanos());
        next = scheduler.schedule(() -> run(pipeline, dueNanos), delayNanos, TimeUnit.NANOSECONDS);
    }

    private void run(Pipeline pipeline, long dueNanos) {
        long nowNanos = ticker.nanos();
        long following = dueNanos + interval.toNanos();
        if (following - nowNanos <= 0) {
            following = nowNanos + interval.toNanos(); // fell behind: the next run a full interval on, no catch-up
        }
        Instant followingAt = clock.instant().plusNanos(following - nowNanos);
        try {
            pipeline.handle(List.of(Map.of()));
        } catch (RuntimeException e) {
            LOG.warn("Pipeline {}: timer run failed", pipeline.id(), e);
        } finally {
            schedule(pipeline, following, followingAt);
        }
    }

    @Override
    public void close() {
        closed = true;
        ScheduledFuture<?> current = next;
        if (current != null) {
            current.cancel(false);
        }
    }
}
