package io.qubiq.tagbus;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

class WarningThrottleTest {

    private final AtomicLong nanos = new AtomicLong(1_000);
    private final WarningThrottle throttle = new WarningThrottle(Duration.ofSeconds(10), nanos::get);

    @Test
    void firstOccurrenceIsReportedAtOnce() {
        assertThat(throttle.record()).hasValue(1);
    }

    @Test
    void laterOccurrencesAreHeldUntilTheIntervalPassedThenReportedWithTheirCount() {
        throttle.record();
        for (int i = 0; i < 41; i++) {
            nanos.addAndGet(Duration.ofMillis(100).toNanos());
            assertThat(throttle.record()).isEmpty();
        }
        assertThat(throttle.unreported()).isEqualTo(41);

        nanos.addAndGet(Duration.ofSeconds(10).toNanos());
        assertThat(throttle.record()).hasValue(42);
        assertThat(throttle.unreported()).isZero();
        assertThat(throttle.record()).isEmpty();
    }
}
