package io.qubiq.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.qubiq.core.time.ManualTicker;
import io.qubiq.pipeline.config.PipelineConfig;
import io.qubiq.pipeline.expr.ExpressionEngine;
import io.qubiq.pipeline.trigger.IntervalTrigger;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An interval trigger keeps its rhythm on the monotonic ticker through wall clock steps. Time is driven
 * by hand: a {@link ManualTicker} under a {@link ManualScheduler}, a wall clock set by the test.
 */
class IntervalTriggerClockStepTest {

    static final Instant T0 = Instant.parse("2026-10-25T00:30:00Z");
    static final Duration HOUR = Duration.ofHours(1);
    static final Duration INTERVAL = Duration.ofSeconds(10);

    final ManualTicker ticker = new ManualTicker();
    final ManualScheduler scheduler = new ManualScheduler(ticker);
    Instant wall = T0;
    final Clock clock = new Clock() {
        @Override
        public Instant instant() {
            return wall;
        }

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }
    };
    IntervalTrigger trigger;

    Pipeline pipeline(Optional<Instant> savedNextRunAt) throws Exception {
        PipelineConfig config = PipelineConfigs.parse("""
                pipelines:
                  timer:
                    trigger: {interval_ms: 10000}
                    outputs:
                      - connection: out
                        mqtt: {topic: "t", payload: "'x'"}
                """).get("timer");
        PipelineState state = PipelineState.fresh(true);
        Pipeline pipeline = new Pipeline("timer", config, new ExpressionEngine(path -> Optional.empty()), List.of(),
                state, clock);
        savedNextRunAt.ifPresent(pipeline::nextRunAt);
        trigger = new IntervalTrigger(scheduler.executor(), INTERVAL, clock, ticker);
        trigger.start(pipeline);
        return pipeline;
    }

    @AfterEach
    void close() {
        if (trigger != null) {
            trigger.close();
        }
    }

    /** Time passes for {@code seconds}: the wall clock and the ticker move, due runs run. */
    void pass(int seconds) {
        for (int i = 0; i < seconds * 10; i++) {
            ticker.advanceMillis(100);
            wall = wall.plusMillis(100);
            scheduler.runDue();
        }
    }

    long runs(Pipeline pipeline) {
        return pipeline.status(0).events();
    }

    @Test
    void aTimerKeepsFiringEveryIntervalAfterTheWallClockStepsBackAnHour() throws Exception {
        // Regression (issue 19): the delay to the next run was "due time minus wall clock now", so after a
        // step back of one hour the next run was an hour and an interval away: the timer stopped for an hour.
        Pipeline pipeline = pipeline(Optional.empty());
        pass(60);
        assertThat(runs(pipeline)).isEqualTo(6);

        wall = wall.minus(HOUR);
        pass(60);

        assertThat(runs(pipeline)).as("six more runs in the minute after the step").isEqualTo(12);
        assertThat(pipeline.nextRunAt()).as("the published due time follows the wall clock, stepped back")
                .contains(T0.plusSeconds(130).minus(HOUR));
        assertThat(scheduler.waiting()).isEqualTo(1);
    }

    @Test
    void aWallClockStepForwardOfAnHourBringsNoBurstOfRunsAndNoStop() throws Exception {
        // Catches a timer that reads the wall clock for its rhythm: after a step forward of one hour the run
        // would look overdue and fire at once (or once per missed interval). The old wall-clock code passed this
        // only because the pending run's delay was already with the scheduler; it failed the step back above.
        Pipeline pipeline = pipeline(Optional.empty());
        pass(15);
        assertThat(runs(pipeline)).isEqualTo(1);

        wall = wall.plus(HOUR);
        scheduler.runDue();
        assertThat(runs(pipeline)).as("no run at the step").isEqualTo(1);
        pass(4);
        assertThat(runs(pipeline)).as("the next run 10 s after the last, not earlier").isEqualTo(1);
        pass(1);
        assertThat(runs(pipeline)).isEqualTo(2);
        pass(60);
        assertThat(runs(pipeline)).isEqualTo(8);
    }

    @Test
    void aSavedDueTimeAnHourAheadAfterTheWallClockWasSetBackWhileStoppedCountsAsOneInterval() throws Exception {
        // Catches a start that trusts the saved due time blindly: it is the only anchor across a restart (the
        // ticker does not survive one), and one an hour ahead because the wall clock was set back while the
        // gateway was down must not hold the timer for an hour.
        Pipeline pipeline = pipeline(Optional.of(T0.plus(HOUR)));
        pass(10);

        assertThat(runs(pipeline)).isEqualTo(1);
    }

    @Test
    void aSavedDueTimeWithinTheIntervalIsKeptAcrossARestart() throws Exception {
        // Catches a monotonic rewrite that loses the rhythm across restarts: the saved due time, 3 s ahead, is
        // when the first run happens, and it is published unchanged.
        Pipeline pipeline = pipeline(Optional.of(T0.plusSeconds(3)));
        assertThat(pipeline.nextRunAt()).contains(T0.plusSeconds(3));
        pass(2);
        assertThat(runs(pipeline)).isZero();
        pass(1);

        assertThat(runs(pipeline)).isEqualTo(1);
    }
}
