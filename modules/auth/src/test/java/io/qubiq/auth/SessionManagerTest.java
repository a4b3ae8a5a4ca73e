package io.qubiq.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class SessionManagerTest {

    final MutableClock clock = new MutableClock();
    final SessionManager sessions = new SessionManager(clock, Duration.ofMinutes(30), Duration.ofHours(12));

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
        assertThat(new SessionManager(clock, Duration.ofMinutes(30), Duration.ofHours(12)).create("alice").csrfToken())
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
        clock.advance(Duration.ofMinutes(-60));
        assertThat(sessions.resolve(s.id())).as("an expired session is gone for good").isEmpty();
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
