package io.qubiq.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.qubiq.core.event.AuditAction;
import io.qubiq.core.event.AuditEvent;
import io.qubiq.testkit.http.ConsoleClient;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Sessions, their cookie, CSRF, sign-out and what a state-changing request must carry. */
class SessionSecurityTest {

    @TempDir
    static Path dir;
    static ConsoleFixture console;

    @BeforeAll
    static void start() throws Exception {
        console = ConsoleFixture.start(dir);
    }

    @AfterAll
    static void stop() {
        console.close();
    }

    @Test
    void signInSetsAnHttpOnlySameSiteStrictCookieAndAnswersPermissionsAndCsrfToken() {
        HttpResponse<String> answer = console.anonymous().signIn("engineer", ConsoleFixture.password("engineer"));

        assertThat(answer.statusCode()).isEqualTo(200);
        String cookie = answer.headers().firstValue("Set-Cookie").orElseThrow();
        assertThat(cookie).startsWith("qubiq_session=").contains("HttpOnly", "SameSite=Strict", "Path=/")
                .as("plain HTTP: not Secure").doesNotContain("Secure");
        assertThat(answer.body()).contains("\"user\":\"engineer\"", "\"roles\":[\"engineer\"]", "\"csrfToken\":\"",
                "\"edit_connections\"", "\"view_audit\"", "\"manage_configuration\"").doesNotContain("manage_users");
    }

    @Test
    void theSessionAnswersTheSameCsrfTokenAfterAReloadOfThePage() {
        ConsoleClient operator = console.as("operator");
        String again = operator.get("/api/v1/session").body();
        assertThat(again).contains("\"csrfToken\":\"" + operator.csrfToken().orElseThrow() + "\"", "\"via\":\"session\"");
    }

    @Test
    void aStateChangingRequestWithTheCookieButWithoutTheCsrfTokenIsRefused() {
        ConsoleClient engineer = console.as("engineer");
        int before = console.gateway.actions.size();

        HttpResponse<String> refused = engineer.withoutCsrf().post("/api/v1/store-forward/db/quarantine/drop",
                "{\"ids\":[1]}");

        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(refused.body()).contains("CSRF token missing or wrong");
        assertThat(console.gateway.actions).as("the handler never ran").hasSize(before);
    }

    @Test
    void aCsrfTokenOfAnotherSessionIsRefused() {
        ConsoleClient a = console.as("engineer");
        ConsoleClient b = console.as("engineer");
        HttpResponse<String> crossed = ConsoleClient.anonymous(console.base()).send("POST",
                "/api/v1/store-forward/db/quarantine/drop", "{\"ids\":[1]}");
        assertThat(crossed.statusCode()).isEqualTo(401);
        HttpRequest forged = HttpRequest.newBuilder(URI.create(console.base() + "/api/v1/store-forward/db/quarantine/drop"))
                .header("Content-Type", "application/json")
                .header("Cookie", "qubiq_session=" + a.sessionId().orElseThrow())
                .header(RequestGuard.CSRF_HEADER, b.csrfToken().orElseThrow())
                .POST(HttpRequest.BodyPublishers.ofString("{\"ids\":[1]}")).build();
        assertThat(send(forged).statusCode()).isEqualTo(403);
    }

    @Test
    void operatorActionsCarryTheSignedInUserAndTheRemoteAddress() {
        HttpResponse<String> retried = console.as("engineer").post("/api/v1/store-forward/db/quarantine/retry",
                "{\"ids\":[7,9]}");

        assertThat(retried.statusCode()).as(retried.body()).isEqualTo(200);
        assertThat(console.gateway.actions).contains(new FakeGateway.Action("retry",
                "db " + new StoreForwardAccess.Selection(java.util.List.of(7L, 9L), false), "engineer", "127.0.0.1"));
    }

    @Test
    void aSelectionMustBeEitherIdsOrAllAndBadInputReachesNoHandler() {
        ConsoleClient engineer = console.as("engineer");
        int before = console.gateway.actions.size();
        assertThat(engineer.post("/api/v1/store-forward/db/quarantine/drop", "{}").body())
                .contains("send either \\\"ids\\\"");
        assertThat(engineer.post("/api/v1/store-forward/db/quarantine/drop", "{\"ids\":[1],\"all\":true}").statusCode())
                .isEqualTo(400);
        assertThat(engineer.post("/api/v1/store-forward/db/quarantine/drop", "{\"ids\":[\"x\"]}").body())
                .contains("whole numbers");
        assertThat(engineer.post("/api/v1/store-forward/db/quarantine/drop", "{\"ids\":[]}").body())
                .contains("select at least one");
        assertThat(engineer.post("/api/v1/store-forward/db/quarantine/drop", "not json").statusCode()).isEqualTo(400);
        assertThat(console.gateway.actions).hasSize(before);
    }

    @Test
    void signOutEndsTheSessionSoTheCookieNoLongerWorksAndIsAudited() {
        ConsoleClient viewer = console.as("viewer");
        assertThat(viewer.get("/api/v1/tags").statusCode()).isEqualTo(200);

        HttpResponse<String> out = viewer.delete("/api/v1/session");

        assertThat(out.statusCode()).isEqualTo(204);
        assertThat(out.headers().firstValue("Set-Cookie").orElseThrow()).contains("Max-Age=0");
        assertThat(viewer.get("/api/v1/tags").statusCode()).isEqualTo(401);
        assertThat(console.events.audits()).extracting(AuditEvent::action, AuditEvent::user)
                .contains(org.assertj.core.groups.Tuple.tuple(AuditAction.SIGN_OUT, "viewer"));
    }

    @Test
    void permissionRefusalsAreJournaledButNotOncePerRequest() {
        // Regression: a signed-in caller refused with 403 left no trace in the audit journal.
        ConsoleClient nobody = console.as("nobody");
        for (int i = 0; i < 5; i++) {
            assertThat(nobody.get("/api/v1/tags").statusCode()).isEqualTo(403);
        }
        assertThat(nobody.send("HEAD", "/api/v1/tags", null).statusCode()).isEqualTo(403);

        java.util.List<AuditEvent> refusals = console.events.audits().stream()
                .filter(e -> e.action() == AuditAction.ACCESS_DENIED && e.user().equals("nobody")).toList();
        assertThat(refusals).as("the first of the minute at once, the rest counted for the summary")
                .hasSizeBetween(1, 2).first().satisfies(first -> {
                    assertThat(first.outcome()).contains("View tags", "GET /api/v1/tags");
                    assertThat(first.details()).containsEntry(AuditAction.DETAIL_FROM, "127.0.0.1")
                            .containsEntry("via", "session");
                });
    }

    @Test
    void aWrongPasswordAndAnUnknownUserGetTheSameAnswer() {
        HttpResponse<String> wrong = console.anonymous().signIn("viewer", "not-the-password-at-all");
        HttpResponse<String> unknown = console.anonymous().signIn("mallory", "not-the-password-at-all");
        assertThat(wrong.statusCode()).isEqualTo(401);
        assertThat(unknown.statusCode()).isEqualTo(401);
        assertThat(wrong.body()).contains("wrong user name or password");
        assertThat(unknown.body()).isEqualTo(wrong.body());
        assertThat(wrong.headers().firstValue("Set-Cookie")).isEmpty();
    }

    @Test
    void aSignInSentAsAFormOrPlainTextIsRefusedSoAnotherSiteCannotPostIt() {
        HttpRequest form = HttpRequest.newBuilder(URI.create(console.base() + "/api/v1/session"))
                .header("Content-Type", "text/plain")
                .POST(HttpRequest.BodyPublishers.ofString("{\"user\":\"viewer\",\"password\":\""
                        + ConsoleFixture.password("viewer") + "\"}")).build();
        HttpResponse<String> answer = send(form);
        assertThat(answer.statusCode()).isEqualTo(415);
        assertThat(answer.headers().firstValue("Set-Cookie")).isEmpty();
    }

    @Test
    void aWrongApiTokenIsNotSignedInEvenWithAValidCookie() {
        ConsoleClient viewer = console.as("viewer");
        HttpRequest request = HttpRequest.newBuilder(URI.create(console.base() + "/api/v1/tags"))
                .header("Cookie", "qubiq_session=" + viewer.sessionId().orElseThrow())
                .header("Authorization", "Bearer qbq_wrong").build();
        assertThat(send(request).statusCode()).isEqualTo(401);
    }

    @Test
    void apiTokensCannotMintTokensAndAPasswordResetRevokesThem() {
        ConsoleClient admin = console.as("admin");
        assertThat(admin.post("/api/v1/users", "{\"name\":\"pat\",\"password\":\"lichen-granite-77\","
                + "\"roles\":[\"viewer\"]}").statusCode()).isEqualTo(201);
        ConsoleClient pat = ConsoleClient.signedIn(console.base(), "pat", "lichen-granite-77");
        HttpResponse<String> created = pat.post("/api/v1/tokens", "{\"name\":\"export\",\"expires\":\"2099-01-01T00:00:00Z\"}");
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        String secret = created.body().replaceAll(".*\"token\":\"(qbq_[^\"]+)\".*", "$1");
        ConsoleClient viaToken = ConsoleClient.withToken(console.base(), secret);

        HttpResponse<String> minted = viaToken.post("/api/v1/tokens", "{\"name\":\"forever\"}");
        assertThat(minted.statusCode()).as(minted.body()).isEqualTo(403);
        assertThat(minted.body()).contains("an API token cannot create API tokens");

        assertThat(admin.put("/api/v1/users/pat", "{\"password\":\"basalt-meadow-88\"}").statusCode()).isEqualTo(200);
        assertThat(viaToken.get("/api/v1/tags").statusCode()).as("the token died with the reset").isEqualTo(401);
        assertThat(admin.delete("/api/v1/users/pat").statusCode()).isEqualTo(204);
    }

    @Test
    void guessesAtTheCurrentPasswordAreThrottledWith429AndRetryAfter() {
        ConsoleClient admin = console.as("admin");
        assertThat(admin.post("/api/v1/users", "{\"name\":\"quinn\",\"password\":\"lichen-granite-77\","
                + "\"roles\":[\"viewer\"]}").statusCode()).isEqualTo(201);
        ConsoleClient quinn = ConsoleClient.signedIn(console.base(), "quinn", "lichen-granite-77");
        String change = "{\"current\":\"%s\",\"password\":\"basalt-meadow-88\"}";
        for (int i = 0; i < 5; i++) {
            assertThat(quinn.post("/api/v1/session/password", change.formatted("wrong-guess-" + i)).statusCode())
                    .isEqualTo(403);
        }

        HttpResponse<String> throttled = quinn.post("/api/v1/session/password", change.formatted("lichen-granite-77"));
        assertThat(throttled.statusCode()).as(throttled.body()).isEqualTo(429);
        assertThat(throttled.headers().firstValue("Retry-After")).hasValueSatisfying(v ->
                assertThat(Long.parseLong(v)).isPositive());
        assertThat(throttled.body()).contains("try again in");
        assertThat(console.auth.users().check("quinn", "lichen-granite-77").outcome()).as("unchanged")
                .isEqualTo(io.qubiq.auth.UserStore.Outcome.OK);
        assertThat(admin.delete("/api/v1/users/quinn").statusCode()).isEqualTo(204);
    }

    @Test
    void usersAreManagedOverTheApiAndBadInputChangesNothing() {
        ConsoleClient admin = console.as("admin");
        HttpResponse<String> created = admin.post("/api/v1/users",
                "{\"name\":\"carol\",\"password\":\"maple-orchard-123\",\"roles\":[\"viewer\"]}");
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        assertThat(admin.post("/api/v1/users", "{\"name\":\"carol\",\"password\":\"maple-orchard-123\"}").statusCode())
                .isEqualTo(409);
        assertThat(admin.post("/api/v1/users", "{\"name\":\"dave\",\"password\":\"short\"}").statusCode()).isEqualTo(400);
        HttpResponse<String> badRole = admin.put("/api/v1/users/carol", "{\"roles\":[\"wizard\"],\"password\":"
                + "\"another-password-123\"}");
        assertThat(badRole.statusCode()).isEqualTo(400);
        assertThat(badRole.body()).contains("unknown role 'wizard'");
        assertThat(ConsoleClient.signedIn(console.base(), "carol", "maple-orchard-123").get("/api/v1/tags").statusCode())
                .as("password unchanged").isEqualTo(200);
        assertThat(admin.put("/api/v1/users/carol", "{\"disabled\":true}").statusCode()).isEqualTo(200);
        assertThat(console.anonymous().signIn("carol", "maple-orchard-123").statusCode()).isEqualTo(401);
        assertThat(admin.delete("/api/v1/users/carol").statusCode()).isEqualTo(204);
        assertThat(admin.delete("/api/v1/users/carol").statusCode()).isEqualTo(404);
        assertThat(admin.put("/api/v1/users/admin", "{\"roles\":[\"viewer\"]}").statusCode())
                .as("the last administrator keeps the role").isEqualTo(409);
    }

    private static HttpResponse<String> send(HttpRequest request) {
        try {
            return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
