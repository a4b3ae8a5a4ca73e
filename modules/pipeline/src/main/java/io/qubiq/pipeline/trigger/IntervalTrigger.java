package io.qubiq.pipeline.trigger;

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
 * One event every {@code interval}, on the shared pipeline scheduler. The next due time is kept
 * in the pipeline's state, so after a restart a pipeline resumes its rhythm: a run that fell due
 * while the gateway was down happens once, at start, rather than being skipped or repeated for
 * every missed interval.
 */
public final class IntervalTrigger implements Trigger {

    private static final Logger LOG = LoggerFactory.getLogger(IntervalTrigger.class);

    private final ScheduledExecutorService scheduler;
    private final Duration interval;
    private final Clock clock;
    private volatile ScheduledFuture<?> next;
    private volatile boolean closed;

    public IntervalTrigger(ScheduledExecutorService scheduler, Duration interval, Clock clock) {
        this.scheduler = scheduler;
        this.interval = interval;
        this.clock = clock;
    }

    @Override
    public void start(Pipeline pipeline) {
        Instant now = clock.instant();
        Instant due = pipeline.nextRunAt().filter(at -> at.isBefore(now.plus(interval))).orElse(now.plus(interval));
        schedule(pipeline, due);
    }

    private void schedule(Pipeline pipeline, Instant due) {
        if (closed) {
            return;
        }
        pipeline.nextRunAt(due);
        long delayMs = Math.max(0, Duration.between(clock.instant(), due).toMillis());
        next = scheduler.schedule(() -> run(pipeline, due), delayMs, TimeUnit.MILLISECONDS);
    }

    private void run(Pipeline pipeline, Instant due) {
        Instant following = due.plus(interval);
        Instant now = clock.instant();
        if (!following.isAfter(now)) {
            following = now.plus(interval);
        }
        try {
            pipeline.handle(List.of(Map.of()));
        } catch (RuntimeException e) {
            LOG.warn("Pipeline {}: timer run failed", pipeline.id(), e);
        } finally {
            schedule(pipeline, following);
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
