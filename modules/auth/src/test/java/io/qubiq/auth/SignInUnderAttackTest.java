package io.qubiq.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Sign-in while someone guesses passwords: the guesses are counted before hashing and lock nobody out. */
class SignInUnderAttackTest {

    @TempDir
    Path dir;

    /**
     * Catches the check-then-count race: 150 parallel wrong passwords for admin from one address were
     * all hashed and checked; only the 5 free tries may be, the rest are refused without hashing.
     */
    @Test
    void parallelWrongPasswordsAreCheckedOnlyForTheFreeTries() throws Exception {
        AuthFixture f = new AuthFixture(dir);
        f.user("admin", "admin");
        long hashedBefore = f.hasher.verifications();

        ExecutorService pool = Executors.newFixedThreadPool(150);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<SignInResult>> answers = new ArrayList<>();
        for (int i = 0; i < 150; i++) {
            String guess = "guess-number-" + i;
            answers.add(pool.submit(() -> {
                start.await();
                return f.auth.signIn().signIn("admin", guess, "10.0.0.66");
            }));
        }
        start.countDown();
        List<SignInResult> results = new ArrayList<>();
        for (Future<SignInResult> answer : answers) {
            results.add(answer.get());
        }
        pool.shutdown();

        assertThat(f.hasher.verifications() - hashedBefore).as("passwords hashed").isEqualTo(5);
        assertThat(results).filteredOn(r -> r instanceof SignInResult.Refused refused && !refused.throttled())
                .hasSize(5);
        assertThat(results).filteredOn(r -> r instanceof SignInResult.Refused refused && refused.throttled())
                .hasSize(145);
    }

    /** Catches the lockout by anyone: failures for admin from one address made admin wait at every address. */
    @Test
    void failuresFromOneAddressDoNotBlockTheUserAtAnother() throws Exception {
        AuthFixture f = new AuthFixture(dir);
        f.user("admin", "admin");
        for (int i = 0; i < 20; i++) {
            f.auth.signIn().signIn("admin", "guess-number-" + i, "10.0.0.66");
        }
        assertThat(f.auth.signIn().signIn("admin", AuthFixture.password("admin"), "10.0.0.66"))
                .as("the attacker's own address waits").isInstanceOf(SignInResult.Refused.class);

        assertThat(f.auth.signIn().signIn("admin", AuthFixture.password("admin"), "10.0.0.7"))
                .isInstanceOf(SignInResult.SignedIn.class);
    }

    /**
     * Catches the shared loopback bucket: 5 failures for unknown names from 127.0.0.1 blocked every
     * local console user, admin included.
     */
    @Test
    void unknownNamesDoNotBlockAdminOnLoopback() throws Exception {
        AuthFixture f = new AuthFixture(dir);
        f.user("admin", "admin");
        for (int i = 0; i < 20; i++) {
            f.auth.signIn().signIn("nobody-" + i, "guess", "127.0.0.1");
        }
        assertThat(f.auth.signIn().signIn("nobody-99", "guess", "127.0.0.1"))
                .as("guessing at names is slowed").isEqualTo(new SignInResult.Refused(Duration.ofSeconds(1), true));

        assertThat(f.auth.signIn().signIn("admin", AuthFixture.password("admin"), "127.0.0.1"))
                .isInstanceOf(SignInResult.SignedIn.class);
    }

    /**
     * Catches sign-ins queueing for a password check: with every check place taken, a sign-in must be
     * told to retry within the gate's patience, without hashing and without counting a failure.
     */
    @Test
    void aSignInFindingEveryCheckPlaceTakenIsToldToRetryAtOnceAndCountsNothing() throws Exception {
        CheckGate gate = new CheckGate(2, Auth.CHECK_PATIENCE);
        AuthFixture f = new AuthFixture(dir, AuthConfig.defaults(), AuthFixture.hasher(12), gate);
        f.user("admin", "admin");
        long hashedBefore = f.hasher.verifications();
        assertThat(gate.tryEnter()).isTrue();
        assertThat(gate.tryEnter()).isTrue();

        for (int i = 0; i < 10; i++) {
            long started = System.nanoTime();
            SignInResult result = f.auth.signIn().signIn("admin", "guess-" + i, "127.0.0.1");
            assertThat(result).isEqualTo(new SignInResult.Busy(Duration.ofSeconds(1)));
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofMillis(600));
        }
        assertThat(f.hasher.verifications()).as("nothing hashed").isEqualTo(hashedBefore);

        gate.leave();
        assertThat(f.auth.signIn().signIn("admin", AuthFixture.password("admin"), "127.0.0.1"))
                .as("ten busy answers counted no failure").isInstanceOf(SignInResult.SignedIn.class);
    }

    /**
     * Catches sign-ins queueing behind a burst: during a burst of guesses from many addresses a
     * legitimate sign-in took 17.5 s. Now a "busy, try again" answer comes within a second, a sign-in
     * that gets a place takes its own check's time only (allowed 2.5 s here: one production-strength
     * Argon2id on a loaded 2-core test machine; queueing behind 32 attackers took far longer), the user
     * is never refused for the attackers' failures, and signs in once the burst ends.
     */
    @Test
    void aLegitimateSignInDuringABurstIsAnsweredWithinASecond() throws Exception {
        Argon2Parameters production = AuthConfig.defaults().hashParameters();
        AuthFixture f = new AuthFixture(dir, AuthConfig.defaults(), new PasswordHasher(production, 12, 2),
                new CheckGate(2, Auth.CHECK_PATIENCE));
        f.user("admin", "admin");
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger busy = new AtomicInteger();
        ExecutorService attackers = Executors.newFixedThreadPool(32);
        for (int t = 0; t < 32; t++) {
            int thread = t;
            attackers.submit(() -> {
                for (int n = 0; !stop.get(); n++) {
                    String from = "10." + thread + "." + (n / 250 % 250) + "." + (n % 250);
                    if (f.auth.signIn().signIn("admin", "guess-" + n, from) instanceof SignInResult.Busy) {
                        busy.incrementAndGet();
                    }
                }
                return null;
            });
        }
        try {
            Thread.sleep(500);
            for (int i = 0; i < 10; i++) {
                long started = System.nanoTime();
                SignInResult result = f.auth.signIn().signIn("admin", AuthFixture.password("admin"), "127.0.0.1");
                Duration took = Duration.ofNanos(System.nanoTime() - started);
                assertThat(result).isInstanceOfAny(SignInResult.SignedIn.class, SignInResult.Busy.class);
                assertThat(took).as(result.toString()).isLessThan(result instanceof SignInResult.Busy
                        ? Duration.ofSeconds(1) : Duration.ofMillis(2500));
                Thread.sleep(50);
            }
            assertThat(busy.get()).as("the burst filled the gate").isPositive();
        } finally {
            stop.set(true);
            attackers.shutdown();
        }
        assertThat(attackers.awaitTermination(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        assertThat(f.auth.signIn().signIn("admin", AuthFixture.password("admin"), "127.0.0.1"))
                .isInstanceOf(SignInResult.SignedIn.class);
    }
}
