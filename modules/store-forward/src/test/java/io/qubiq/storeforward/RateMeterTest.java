package io.qubiq.storeforward;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The smoothed in/out rates a channel shows: they follow a steady flow, and a pause shows within seconds. */
class RateMeterTest {

    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    private final RateMeter meter = new RateMeter(10_000, nanos::get);

    private void advanceSeconds(double seconds) {
        nanos.addAndGet((long) (seconds * TimeUnit.SECONDS.toNanos(1)));
    }

    @Test
    void steadyFlowIsReportedAtItsRate() {
        double rate = 0;
        for (int second = 0; second < 120; second++) {
            advanceSeconds(1);
            meter.add(1_000);
            rate = meter.rate();
        }
        assertThat(rate).isCloseTo(1_000, within(1.0));
        assertThat(meter.total()).isEqualTo(120_000);
    }

    @Test
    void rateDoesNotDependOnHowOftenItIsRead() {
        RateMeter rarely = new RateMeter(10_000, nanos::get);
        double often = 0;
        for (int tenth = 1; tenth <= 1_200; tenth++) {
            advanceSeconds(0.1);
            meter.add(100);
            rarely.add(100);
            often = meter.rate();
        }
        assertThat(rarely.rate()).isCloseTo(1_000, within(1.0));
        assertThat(often).isCloseTo(1_000, within(1.0));
    }

    @Test
    void pauseShowsWithinSecondsAndDecaysTowardsZero() {
        for (int second = 0; second < 120; second++) {
            advanceSeconds(1);
            meter.add(1_000);
            meter.rate();
        }
        advanceSeconds(10);
        double afterOneWindow = meter.rate();
        assertThat(afterOneWindow).as("one time constant later").isCloseTo(1_000 * Math.exp(-1), within(5.0));
        advanceSeconds(60);
        assertThat(meter.rate()).isLessThan(5);
    }

    @Test
    void burstIsSmoothedRatherThanShownAsItsPeak() {
        advanceSeconds(1);
        meter.add(10_000);
        double rate = meter.rate();
        assertThat(rate).isGreaterThan(0).isLessThan(10_000);
    }

    @Test
    void readingTwiceAtTheSameInstantChangesNothing() {
        advanceSeconds(1);
        meter.add(500);
        double first = meter.rate();
        assertThat(meter.rate()).isEqualTo(first);
    }

    @Test
    void nothingCountedMeansZero() {
        advanceSeconds(5);
        assertThat(meter.rate()).isZero();
        assertThat(meter.total()).isZero();
    }
}
