package io.qubiq.storeforward;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

/** The head-of-line retry wait: doubling from the initial wait up to the cap, spread by ±20 %. */
class BackoffTest {

    /** A generator whose nextDouble() is always {@code value}: 0.5 means no spread, 0 the lowest, ~1 the highest. */
    private static RandomGenerator fixed(double value) {
        return new RandomGenerator() {
            @Override
            public long nextLong() {
                throw new UnsupportedOperationException();
            }

            @Override
            public double nextDouble() {
                return value;
            }
        };
    }

    @Test
    void waitDoublesOnEveryConsecutiveFailureUntilTheCap() {
        Backoff backoff = new Backoff(100, 1_000, fixed(0.5));
        List<Long> delays = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            delays.add(backoff.nextDelayMs());
        }
        assertThat(delays).containsExactly(100L, 200L, 400L, 800L, 1_000L, 1_000L, 1_000L);
        assertThat(backoff.consecutiveFailures()).isEqualTo(7);
    }

    @Test
    void jitterSpreadsEachWaitByAtMostTwentyPercentEitherWay() {
        long seed = 20261130L;
        Backoff backoff = new Backoff(100, 100_000, new SplittableRandom(seed));
        long[] bases = {100, 200, 400, 800, 1_600};
        for (int n = 0; n < bases.length; n++) {
            long lowest = Long.MAX_VALUE;
            long highest = Long.MIN_VALUE;
            for (int trial = 0; trial < 2_000; trial++) {
                backoff.reset();
                long delay = 0;
                for (int i = 0; i <= n; i++) {
                    delay = backoff.nextDelayMs();
                }
                lowest = Math.min(lowest, delay);
                highest = Math.max(highest, delay);
            }
            long base = bases[n];
            assertThat(lowest).as("seed %d, failure %d: lowest wait", seed, n + 1).isGreaterThanOrEqualTo(base * 8 / 10);
            assertThat(highest).as("seed %d, failure %d: highest wait", seed, n + 1).isLessThanOrEqualTo(base * 12 / 10);
            // the spread is really used on both sides, not a constant
            assertThat(lowest).as("seed %d, failure %d: lowest wait", seed, n + 1).isLessThan(base * 85 / 100);
            assertThat(highest).as("seed %d, failure %d: highest wait", seed, n + 1).isGreaterThan(base * 115 / 100);
        }
    }

    @Test
    void extremesOfTheJitterAreExactlyEightyAndOneHundredTwentyPercent() {
        assertThat(new Backoff(1_000, 60_000, fixed(0.0)).nextDelayMs()).isEqualTo(800);
        assertThat(new Backoff(1_000, 60_000, fixed(Math.nextDown(1.0))).nextDelayMs()).isEqualTo(1_200);
    }

    @Test
    void jitterNeverTakesTheWaitAboveTheCap() {
        Backoff backoff = new Backoff(100, 1_000, new SplittableRandom(7));
        for (int i = 0; i < 4; i++) {
            backoff.nextDelayMs();
        }
        for (int i = 0; i < 1_000; i++) {
            assertThat(backoff.nextDelayMs()).isBetween(800L, 1_000L);
        }
    }

    @Test
    void manyFailuresDoNotOverflowTheWait() {
        Backoff backoff = new Backoff(500, 30_000, fixed(0.5));
        long last = 0;
        for (int i = 0; i < 10_000; i++) {
            last = backoff.nextDelayMs();
        }
        assertThat(last).isEqualTo(30_000);
    }

    @Test
    void resetAfterASuccessStartsAgainFromTheInitialWait() {
        Backoff backoff = new Backoff(100, 1_000, fixed(0.5));
        backoff.nextDelayMs();
        backoff.nextDelayMs();
        backoff.nextDelayMs();
        backoff.reset();
        assertThat(backoff.consecutiveFailures()).isZero();
        assertThat(backoff.nextDelayMs()).isEqualTo(100);
        assertThat(backoff.consecutiveFailures()).isEqualTo(1);
    }

    @Test
    void aTinyInitialWaitIsStillAtLeastOneMillisecond() {
        Backoff backoff = new Backoff(1, 1, fixed(0.0));
        assertThat(backoff.nextDelayMs()).isEqualTo(1);
    }

    @Test
    void initialWaitMustBePositiveAndNotAboveTheCap() {
        assertThatThrownBy(() -> new Backoff(0, 10, fixed(0.5))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Backoff(100, 10, fixed(0.5))).isInstanceOf(IllegalArgumentException.class);
    }
}
