package io.qubiq.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SignInThrottleTest {

    final MutableClock clock = new MutableClock();
    final SignInThrottle throttle = new SignInThrottle(clock, 5, Duration.ofSeconds(1), Duration.ofMinutes(15), 1000);

    /** Fails as soon as allowed, as a patient attacker would; returns the wait after each failure. */
    private List<Duration> bruteForce(String user, String from, int attempts) {
        List<Duration> waits = new ArrayList<>();
        for (int i = 0; i < attempts; i++) {
            clock.advance(throttle.waitBefore(user, from));
            waits.add(throttle.recordFailure(user, from));
        }
        return waits;
    }

    @Test
    void bruteForceIsSlowedByAGrowingWait() {
        List<Duration> waits = bruteForce("admin", "10.0.0.66", 20);

        assertThat(waits.subList(0, 4)).containsOnly(Duration.ZERO);
        assertThat(waits.subList(4, 15)).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2),
                Duration.ofSeconds(4), Duration.ofSeconds(8), Duration.ofSeconds(16), Duration.ofSeconds(32),
                Duration.ofSeconds(64), Duration.ofSeconds(128), Duration.ofSeconds(256), Duration.ofSeconds(512),
                Duration.ofMinutes(15));
        assertThat(waits.subList(15, 20)).containsOnly(Duration.ofMinutes(15));
    }

    @Test
    void attemptDuringTheWaitIsToldHowLongRemains() {
        bruteForce("admin", "10.0.0.66", 6);

        clock.advance(Duration.ofMillis(500));

        assertThat(throttle.waitBefore("admin", "10.0.0.66")).isEqualTo(Duration.ofMillis(1500));
        assertThat(throttle.waitBefore("ADMIN", "10.0.0.1")).as("per user name, whatever the address")
                .isEqualTo(Duration.ofMillis(1500));
        assertThat(throttle.waitBefore("bob", "10.0.0.66")).as("per address, whatever the name")
                .isEqualTo(Duration.ofMillis(1500));
        assertThat(throttle.waitBefore("bob", "10.0.0.1")).isZero();
    }

    @Test
    void addressGuessingManyNamesIsSlowedToo() {
        for (int i = 0; i < 6; i++) {
            throttle.recordFailure("user" + i, "10.0.0.66");
        }

        assertThat(throttle.waitBefore("user99", "10.0.0.66")).isEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void successfulSignInResetsTheUserCounterButNotTheAddressCounter() {
        bruteForce("alice", "10.0.0.5", 4);
        throttle.recordSuccess("alice");

        assertThat(bruteForce("alice", "10.0.0.6", 4)).containsOnly(Duration.ZERO);
        assertThat(throttle.recordFailure("carol", "10.0.0.5")).as("10.0.0.5 has 5 failures now")
                .isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void countersAreForgottenOnceTheMaximumDelayPassedSinceTheLastFailure() {
        bruteForce("alice", "10.0.0.5", 7);
        clock.advance(Duration.ofMinutes(15).plusSeconds(1));

        assertThat(throttle.waitBefore("alice", "10.0.0.5")).isZero();
        assertThat(throttle.recordFailure("alice", "10.0.0.5")).isZero();
    }

    @Test
    void memoryIsBoundedByEvictingTheLeastRecentlyUsedCounters() {
        SignInThrottle small = new SignInThrottle(clock, 5, Duration.ofSeconds(1), Duration.ofMinutes(15), 100);
        for (int i = 0; i < 10_000; i++) {
            small.recordFailure("name" + i, "10.1." + (i / 256) + "." + (i % 256));
        }

        assertThat(small.size()).isEqualTo(100);
    }

    @Test
    void hugeTypedNamesCannotInflateMemory() {
        throttle.recordFailure("x".repeat(1_000_000), "10.0.0.1");

        assertThat(throttle.waitBefore("x".repeat(128) + "y", "10.0.0.2")).isZero();
        assertThat(throttle.size()).isEqualTo(2);
    }
}
