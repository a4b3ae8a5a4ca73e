package io.qubiq.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class SessionManagerTest {

    final MutableClock clock = new MutableClock();
    final SessionManager sessions = new SessionManager(clock, clock.ticker(), Duration.ofMinutes(30), Duration.ofHours(12));

    @Test
    void sessionIdsAndCsrfTokensCarry256RandomBitsAndDiffer() {
        SessionManager.NewSession a = sessions.create("alice");
        SessionManager.NewSession b = sessions.create("alice");

        assertThat(a.id()).hasSize(43).isNotEqualTo(b.id()).isNotEqualTo(a.csrfToken());
        assertThat(a.session().key()).isEqualTo(Secrets.sha256(a.id())).doesNotContain(a.id());
        assertThat(a.toString()).doesNotContain(a.id()).doesNotContain(a.csrfToken());
    }

    @Test
    void csrfTokenIsHandedOutAgainForALiveSessionOnlyAndDiffersPerManager() {
        SessionManager.NewSession a = sessions.create("alice");

        assertThat(sessions.csrfToken(a.id())).contains(a.csrfToken());
        assertThat(sessions.csrfToken("forged")).isEmpty();
        assertThat(sessions.csrfToken(null)).isEmpty();
        assertThat(new SessionManager(clock, clock.ticker(), Duration.ofMinutes(30), Duration.ofHours(12)).create("alice").csrfToken())
                .as("a restarted gateway draws a new key").isNotEqualTo(a.csrfToken());
        sessions.end(a.id());
        assertThat(sessions.csrfToken(a.id())).isEmpty();
    }

    @Test
    void sessionEndsAfterTheIdleTimeoutWithoutUse() {
        SessionManager.NewSession s = sessions.create("alice");

        clock.advance(Duration.ofMinutes(29));
        assertThat(sessions.resolve(s.id())).isPresent();
        clock.advance(Duration.ofMinutes(29));
        assertThat(sessions.resolve(s.id())).as("use restarts the idle timer").isPresent();
        clock.advance(Duration.ofMinutes(30));
        assertThat(sessions.resolve(s.id())).isEmpty();
        clock.step(Duration.ofMinutes(-60));
        assertThat(sessions.resolve(s.id())).as("an expired session is gone for good, whatever the wall clock")
                .isEmpty();
    }

    @Test
    void peekingAtASessionIsNotUseSoItStillIdlesOut() {
        SessionManager.NewSession s = sessions.create("alice");

        for (int minute = 0; minute < 29; minute++) {
            clock.advance(Duration.ofMinutes(1));
            assertThat(sessions.peek(s.id())).as("minute " + minute).isPresent();
        }
        assertThat(sessions.peek(s.id()).orElseThrow().lastUsed()).as("not stamped as used")
                .isEqualTo(s.session().lastUsed());
        clock.advance(Duration.ofMinutes(1));

        assertThat(sessions.peek(s.id())).isEmpty();
        assertThat(sessions.resolve(s.id())).isEmpty();
        assertThat(sessions.peek("unknown")).isEmpty();
    }

    @Test
    void idleTimeoutKeepsItsLengthWhenTheWallClockStepsAnHourBack() {
        // Regression: the idle timeout was "last use + idle" on the wall clock, so after a step back of one hour
        // an unattended signed-in console stayed usable for an hour and a half instead of 30 minutes.
        SessionManager.NewSession s = sessions.create("alice");
        clock.advance(Duration.ofMinutes(10));
        assertThat(sessions.resolve(s.id())).isPresent();

        clock.step(Duration.ofHours(-1));
        clock.advance(Duration.ofMinutes(29));
        assertThat(sessions.count()).as("last used 29 min ago").isEqualTo(1);
        clock.advance(Duration.ofMinutes(1));

        assertThat(sessions.csrfMatches(s.id(), s.csrfToken())).isFalse();
        assertThat(sessions.resolve(s.id())).isEmpty();
    }

    @Test
    void aWallClockStepForwardOfAnHourEndsNoSessionEarly() {
        // Regression: on the wall clock, a step forward of one hour (NTP catching up after a VM resume) ended
        // every console session at once, idle timeout 30 min, though nobody had been idle.
        SessionManager.NewSession s = sessions.create("alice");
        clock.advance(Duration.ofMinutes(5));

        clock.step(Duration.ofHours(1));

        assertThat(sessions.count()).isEqualTo(1);
        assertThat(sessions.csrfToken(s.id())).isPresent();
        assertThat(sessions.resolve(s.id())).get().extracting(SessionManager.Session::lastUsed)
                .as("use is stamped by the stepped wall clock")
                .isEqualTo(s.session().created().plus(Duration.ofMinutes(65)));
    }

    @Test
    void absoluteTimeoutKeepsItsLengthWhenTheWallClockStepsAnHourBack() {
        // Regression: the absolute timeout was "sign-in + 12 h" on the wall clock; a step back of one hour let an
        // active session live 13 hours.
        SessionManager.NewSession s = sessions.create("alice");
        clock.step(Duration.ofHours(-1));
        for (int i = 0; i < 47; i++) {
            clock.advance(Duration.ofMinutes(15));
            assertThat(sessions.resolve(s.id())).as("after %d min", (i + 1) * 15).isPresent();
        }
        clock.advance(Duration.ofMinutes(15));

        assertThat(sessions.resolve(s.id())).isEmpty();
    }

    @Test
    void sessionEndsAtTheAbsoluteTimeoutHoweverActive() {
        SessionManager.NewSession s = sessions.create("alice");

        for (int i = 0; i < 47; i++) {
            clock.advance(Duration.ofMinutes(15));
            assertThat(sessions.resolve(s.id())).as("after %d min", (i + 1) * 15).isPresent();
        }
        clock.advance(Duration.ofMinutes(15));

        assertThat(sessions.resolve(s.id())).isEmpty();
    }

    @Test
    void csrfTokenMustMatchItsOwnSession() {
        SessionManager.NewSession a = sessions.create("alice");
        SessionManager.NewSession b = sessions.create("bob");

        assertThat(sessions.csrfMatches(a.id(), a.csrfToken())).isTrue();
        assertThat(sessions.csrfMatches(a.id(), b.csrfToken())).isFalse();
        assertThat(sessions.csrfMatches(a.id(), a.csrfToken() + "x")).isFalse();
        assertThat(sessions.csrfMatches(a.id(), "")).isFalse();
        assertThat(sessions.csrfMatches(a.id(), null)).isFalse();
        assertThat(sessions.csrfMatches("forged", a.csrfToken())).isFalse();
    }

    @Test
    void signOutEndsOnlyThatSession() {
        SessionManager.NewSession a = sessions.create("alice");
        SessionManager.NewSession other = sessions.create("alice");

        assertThat(sessions.end(a.id())).isPresent();

        assertThat(sessions.resolve(a.id())).isEmpty();
        assertThat(sessions.csrfMatches(a.id(), a.csrfToken())).isFalse();
        assertThat(sessions.resolve(other.id())).isPresent();
        assertThat(sessions.end(a.id())).isEmpty();
    }

    @Test
    void allSessionsOfAUserCanBeEndedAtOnce() {
        SessionManager.NewSession a1 = sessions.create("alice");
        SessionManager.NewSession a2 = sessions.create("alice");
        SessionManager.NewSession b = sessions.create("bob");

        assertThat(sessions.endAllOfExcept("alice", a2.session().key())).isEqualTo(1);
        assertThat(sessions.resolve(a2.id())).isPresent();
        assertThat(sessions.endAllOf("alice")).isEqualTo(1);

        assertThat(sessions.resolve(a1.id())).isEmpty();
        assertThat(sessions.resolve(a2.id())).isEmpty();
        assertThat(sessions.resolve(b.id())).isPresent();
    }

    @Test
    void expiredSessionsAreSweptSoMemoryFollowsLiveSessions() {
        for (int i = 0; i < 100; i++) {
            sessions.create("user" + i);
        }
        clock.advance(Duration.ofHours(1));
        for (int i = 0; i < 64; i++) {
            sessions.create("late" + i);
        }

        assertThat(sessions.count()).isEqualTo(64);
        assertThat(sessions.held()).isEqualTo(64);
    }
}
