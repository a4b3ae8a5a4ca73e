package io.qubiq.core.time;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The monotonic clock and its hand-moved test double. */
class TickerTest {

    @Test
    void theSystemTickerNeverGoesBack() {
        // Catches a system ticker built on the wall clock (currentTimeMillis), which an NTP step sets back.
        Ticker ticker = Ticker.system();
        long previous = ticker.nanos();
        for (int i = 0; i < 10_000; i++) {
            long now = ticker.nanos();
            assertThat(now - previous).isNotNegative();
            previous = now;
        }
    }

    @Test
    void aManualTickerMovesOnlyForwardAndOnlyWhenTold() {
        // Catches a test double that lets a test "step back" the monotonic clock, which no real one does:
        // tests of wall clock steps must step the wall clock, not the ticker.
        ManualTicker ticker = new ManualTicker();
        long start = ticker.nanos();
        assertThat(ticker.nanos()).isEqualTo(start);

        ticker.advance(Duration.ofMillis(1500));

        assertThat(ticker.millisSince(start)).isEqualTo(1500);
        assertThatThrownBy(() -> ticker.advance(Duration.ofMillis(-1))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("never goes back");
        assertThat(ticker.millisSince(start)).isEqualTo(1500);
    }
}
