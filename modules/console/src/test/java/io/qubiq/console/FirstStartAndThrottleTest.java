package io.qubiq.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.qubiq.auth.AuthConfig;
import io.qubiq.testkit.http.ConsoleClient;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The first start without users (setup token), and a brute-force sign-in being slowed. */
class FirstStartAndThrottleTest {

    @TempDir
    Path dir;

    @Test
    void theFirstAdministratorIsCreatedOnlyWithTheLoggedSetupToken() throws Exception {
        try (ConsoleFixture console = new ConsoleFixture(dir, HttpConfig.plain("127.0.0.1", 0),
                ConsoleFixture.cheap(AuthConfig.defaults()), false)) {
            ConsoleClient anonymous = console.anonymous();
            assertThat(anonymous.get("/api/v1/setup").body()).isEqualTo("{\"required\":true,\"tokenWaiting\":true}");
            Matcher token = Pattern.compile("setup_\\S+").matcher(String.join("\n", console.announcements));
            assertThat(token.find()).isTrue();

            HttpResponse<String> wrong = anonymous.post("/api/v1/setup",
                    "{\"token\":\"setup_wrong\",\"user\":\"admin\",\"password\":\"first-owner-passphrase\"}");
            assertThat(wrong.statusCode()).isEqualTo(403);
            HttpResponse<String> weak = anonymous.post("/api/v1/setup",
                    "{\"token\":\"" + token.group() + "\",\"user\":\"admin\",\"password\":\"short\"}");
            assertThat(weak.statusCode()).as("the token stays valid after a refused password").isEqualTo(400);
            HttpResponse<String> created = anonymous.post("/api/v1/setup",
                    "{\"token\":\"" + token.group() + "\",\"user\":\"admin\",\"password\":\"first-owner-passphrase\"}");
            assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
            assertThat(anonymous.post("/api/v1/setup", "{\"token\":\"" + token.group()
                    + "\",\"user\":\"second\",\"password\":\"first-owner-passphrase\"}").statusCode())
                    .as("used once").isEqualTo(409);
            assertThat(anonymous.get("/api/v1/setup").body()).contains("\"required\":false");
            assertThat(ConsoleClient.signedIn(console.base(), "admin", "first-owner-passphrase").get("/api/v1/users")
                    .body()).contains("\"name\":\"admin\"", "\"roles\":[\"admin\"]");
        }
    }

    @Test
    void aBruteForceSignInIsSlowedWith429AndRetryAfterAndEvenTheRightPasswordWaitsAtThatAddress() throws Exception {
        try (ConsoleFixture console = new ConsoleFixture(dir, HttpConfig.plain("127.0.0.1", 0),
                ConsoleFixture.throttled(3, 60_000), true)) {
            ConsoleClient attacker = console.anonymous();
            for (int i = 0; i < 3; i++) {
                assertThat(attacker.signIn("viewer", "guess-number-" + i).statusCode()).isEqualTo(401);
            }
            HttpResponse<String> slowed = attacker.signIn("viewer", "guess-number-4");
            assertThat(slowed.statusCode()).isEqualTo(429);
            assertThat(slowed.headers().firstValue("Retry-After")).hasValueSatisfying(
                    s -> assertThat(Long.parseLong(s)).isBetween(1L, 60L));
            assertThat(slowed.body()).contains("try again in", "\"retryAfterSeconds\":");
            assertThat(attacker.signIn("viewer", ConsoleFixture.password("viewer")).statusCode())
                    .as("throttled attempts are refused without checking the password").isEqualTo(429);
            assertThat(console.anonymous().signIn("engineer", ConsoleFixture.password("engineer")).statusCode())
                    .as("another user at the same address is not slowed: guessing at viewer locks nobody else out")
                    .isEqualTo(200);
        }
    }

    /**
     * Catches the shared loopback bucket over HTTP: failures for names that are no user, all from
     * 127.0.0.1 (which every local console user shares), blocked every user there with 429.
     */
    @Test
    void guessingNamesFromLoopbackDoesNotLockOutALocalUser() throws Exception {
        try (ConsoleFixture console = new ConsoleFixture(dir, HttpConfig.plain("127.0.0.1", 0),
                ConsoleFixture.throttled(3, 60_000), true)) {
            ConsoleClient guesser = console.anonymous();
            for (int i = 0; i < 3; i++) {
                assertThat(guesser.signIn("nobody-" + i, "guess").statusCode()).isEqualTo(401);
            }
            assertThat(guesser.signIn("nobody-99", "guess").statusCode()).as("more names are slowed")
                    .isEqualTo(429);

            assertThat(console.anonymous().signIn("viewer", ConsoleFixture.password("viewer")).statusCode())
                    .isEqualTo(200);
        }
    }
}
