package io.qubiq.auth;

import static org.assertj.core.api.Assertions.assertThat;

import io.qubiq.auth.SignInThrottle.Admission;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class SignInThrottleTest {

    static final boolean KNOWN = true;
    static final boolean UNKNOWN = false;

    final MutableClock clock = new MutableClock();
    final SignInThrottle throttle = new SignInThrottle(clock, 5, Duration.ofSeconds(1), Duration.ofMinutes(15), 1000);

    /** One failed attempt, made as soon as allowed (as a patient attacker would); returns the wait after it. */
    private Duration failOnce(String user, String from, boolean known) {
        Admission admission = throttle.reserve(user, from, known);
        if (admission instanceof Admission.MustWait mustWait) {
            clock.advance(mustWait.retryAfter());
            admission = throttle.reserve(user, from, known);
        }
        return throttle.failed(admitted(admission));
    }

    private List<Duration> bruteForce(String user, String from, int attempts) {
        List<Duration> waits = new ArrayList<>();
        for (int i = 0; i < attempts; i++) {
            waits.add(failOnce(user, from, KNOWN));
        }
        return waits;
    }

    private static SignInThrottle.Slot admitted(Admission admission) {
        assertThat(admission).isInstanceOf(Admission.Admitted.class);
        return ((Admission.Admitted) admission).slot();
    }

    private Duration waitFor(String user, String from, boolean known) {
        Admission admission = throttle.reserve(user, from, known);
        if (admission instanceof Admission.Admitted a) {
            throttle.released(a.slot());
            return Duration.ZERO;
        }
        return ((Admission.MustWait) admission).retryAfter();
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

    /**
     * Catches the check-then-count race: 150 parallel reservations for one user and address must admit
     * exactly the 5 free tries; before the fix all 150 were checked.
     */
    @Test
    void parallelAttemptsReserveExactlyTheFreeTries() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(32);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Admission>> answers = new ArrayList<>();
        for (int i = 0; i < 150; i++) {
            answers.add(pool.submit(() -> {
                start.await();
                return throttle.reserve("admin", "10.0.0.66", KNOWN);
            }));
        }
        start.countDown();
        List<Admission> admissions = new ArrayList<>();
        for (Future<Admission> answer : answers) {
            admissions.add(answer.get());
        }
        pool.shutdown();

        assertThat(admissions).filteredOn(a -> a instanceof Admission.Admitted).hasSize(5);
        assertThat(admissions).filteredOn(a -> a instanceof Admission.MustWait)
                .allSatisfy(a -> assertThat(((Admission.MustWait) a).retryAfter()).isPositive());
        admissions.stream().filter(a -> a instanceof Admission.Admitted)
                .forEach(a -> throttle.failed(((Admission.Admitted) a).slot()));
        assertThat(waitFor("admin", "10.0.0.66", KNOWN)).isEqualTo(Duration.ofSeconds(1));
    }

    /** Catches the lockout anyone could trigger: before the fix admin was locked out from every address. */
    @Test
    void failuresFromOneAddressSlowThatUserAtThatAddressOnly() {
        bruteForce("admin", "10.0.0.66", 6);

        clock.advance(Duration.ofMillis(500));

        assertThat(waitFor("admin", "10.0.0.66", KNOWN)).isEqualTo(Duration.ofMillis(1500));
        assertThat(waitFor("ADMIN", "10.0.0.66", KNOWN)).as("names are counted case-insensitively")
                .isEqualTo(Duration.ofMillis(1500));
        assertThat(waitFor("admin", "10.0.0.1", KNOWN)).as("the same user at another address").isZero();
        assertThat(waitFor("bob", "10.0.0.66", KNOWN)).as("another user at the same address").isZero();
    }

    /**
     * Catches one shared bucket per address: before the fix 5 failures for unknown names blocked every
     * user at that address, including 127.0.0.1, which every local console user shares.
     */
    @Test
    void unknownNamesAreThrottledPerAddressWithoutSlowingKnownUsersThere() {
        for (int i = 0; i < 6; i++) {
            failOnce("guess" + i, "127.0.0.1", UNKNOWN);
        }

        assertThat(waitFor("guess99", "127.0.0.1", UNKNOWN)).as("more guessing at names waits")
                .isEqualTo(Duration.ofSeconds(2));
        assertThat(waitFor("admin", "127.0.0.1", KNOWN)).as("a real user at the same address").isZero();
        assertThat(waitFor("guess99", "127.0.0.2", UNKNOWN)).as("guessing at names from elsewhere").isZero();
    }

    /** Catches a throttle that lets several attempts through at once once the delays have started. */
    @Test
    void onceDelayedOnlyOneAttemptAtATimeIsChecked() {
        bruteForce("admin", "10.0.0.66", 5);
        clock.advance(Duration.ofSeconds(1));

        SignInThrottle.Slot first = admitted(throttle.reserve("admin", "10.0.0.66", KNOWN));

        assertThat(waitFor("admin", "10.0.0.66", KNOWN)).as("while the first is being checked").isPositive();
        assertThat(throttle.failed(first)).isEqualTo(Duration.ofSeconds(2));
    }

    /** Catches a success or a never-checked attempt being counted as a failure. */
    @Test
    void successForgetsTheCounterAndAReleasedSlotCountsNothing() {
        bruteForce("alice", "10.0.0.5", 4);
        throttle.succeeded(admitted(throttle.reserve("alice", "10.0.0.5", KNOWN)));

        assertThat(bruteForce("alice", "10.0.0.5", 4)).containsOnly(Duration.ZERO);
        for (int i = 0; i < 10; i++) {
            throttle.released(admitted(throttle.reserve("alice", "10.0.0.5", KNOWN)));
        }
        assertThat(throttle.failed(admitted(throttle.reserve("alice", "10.0.0.5", KNOWN))))
                .as("the fifth failure").isEqualTo(Duration.ofSeconds(1));
    }

    /** Catches a slot settled twice counting twice. */
    @Test
    void aSlotIsSettledOnce() {
        SignInThrottle.Slot slot = admitted(throttle.reserve("alice", "10.0.0.5", KNOWN));
        throttle.failed(slot);
        throttle.failed(slot);
        throttle.released(slot);

        assertThat(bruteForce("alice", "10.0.0.5", 3)).containsOnly(Duration.ZERO);
        assertThat(failOnce("alice", "10.0.0.5", KNOWN)).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void countersAreForgottenOnceTheMaximumDelayPassedSinceTheLastFailure() {
        bruteForce("alice", "10.0.0.5", 7);
        clock.advance(Duration.ofMinutes(15).plusSeconds(1));

        assertThat(waitFor("alice", "10.0.0.5", KNOWN)).isZero();
        assertThat(failOnce("alice", "10.0.0.5", KNOWN)).isZero();
    }

    @Test
    void memoryIsBoundedByEvictingTheLeastRecentlyUsedCounters() {
        SignInThrottle small = new SignInThrottle(clock, 5, Duration.ofSeconds(1), Duration.ofMinutes(15), 100);
        for (int i = 0; i < 10_000; i++) {
            Admission admission = small.reserve("name" + i, "10.1." + (i / 256) + "." + (i % 256), KNOWN);
            small.failed(((Admission.Admitted) admission).slot());
        }

        assertThat(small.size()).isEqualTo(100);
    }

    @Test
    void hugeTypedNamesCannotInflateMemory() {
        failOnce("x".repeat(1_000_000), "10.0.0.1", KNOWN);

        assertThat(waitFor("x".repeat(128) + "y", "10.0.0.1", KNOWN)).isZero();
        assertThat(throttle.size()).isEqualTo(1);
    }
}
